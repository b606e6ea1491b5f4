// First: libraries below read navigator.language when they load.
import "../lib/valid-navigator-language";
import { mountPage } from "../lib/mount-page";
import { ConsoleApp } from "./ConsoleApp";
import "../styles.css";
import "./console.css";

// The console is /console/ of the same static files: the one config.json sits next to the player app's index.html.
mountPage({
  title: "Merchant console",
  configUrl: "../config.json",
  home: { href: "#/", label: "Back to the overview" },
  session: "merchant",
  page: <ConsoleApp />,
});
