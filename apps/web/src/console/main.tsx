import { mountPage } from "../lib/mount-page";
import { ConsoleApp } from "./ConsoleApp";
import "../styles.css";
import "./console.css";

// The console is /console/ of the same static files: the one config.json sits next to the player app's index.html.
mountPage({ title: "Merchant console", configUrl: "../config.json", session: "merchant", page: <ConsoleApp /> });
