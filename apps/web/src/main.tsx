// First: libraries below read navigator.language when they load.
import "./lib/valid-navigator-language";
import { App } from "./App";
import { mountPage } from "./lib/mount-page";
import "./styles.css";

mountPage({ title: "Raffles", home: { href: "#/", label: "Back to the raffles" }, session: "player", page: <App /> });
