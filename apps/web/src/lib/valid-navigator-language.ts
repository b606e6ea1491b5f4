import { exposeValidNavigatorLanguage } from "./locale";

// A module of its own so that each page's entry imports it before anything else (see exposeValidNavigatorLanguage).
exposeValidNavigatorLanguage();
