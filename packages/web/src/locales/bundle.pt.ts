import base from "./pt.json";

/** The pt texts: the shared ones and every feature's features/<domain>/locales/pt.json, one chunk (app/i18n.ts). */
export const features = import.meta.glob<object>("../features/*/locales/pt.json", { eager: true, import: "default" });
export default base;
