import base from "./en.json";

/** The en texts: the shared ones and every feature's features/<domain>/locales/en.json, one chunk (app/i18n.ts). */
export const features = import.meta.glob<object>("../features/*/locales/en.json", { eager: true, import: "default" });
export default base;
