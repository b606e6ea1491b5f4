import { App } from "./App";
import { mountPage } from "./lib/mount-page";
import "./styles.css";

mountPage({ title: "Raffles", session: "player", page: <App /> });
