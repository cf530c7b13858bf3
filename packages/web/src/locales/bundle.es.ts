import base from "./es.json";

/** The es texts: the shared ones and every feature's features/<domain>/locales/es.json, one chunk (app/i18n.ts). */
export const features = import.meta.glob<object>("../features/*/locales/es.json", { eager: true, import: "default" });
export default base;
