import base from "./pt.json";

/** The pt texts: the shared ones and every feature's features/<domain>/locales/pt.json, one chunk (app/i18n.ts). */
export const features = import.meta.glob<object>("../features/*/locales/pt.json", { eager: true, import: "default" });
/** The server's error texts in pt, from the error catalogue of @balcao/shared (vite.config.ts, errorCatalogue). */
export { default as errors } from "virtual:error-texts/pt";
export default base;
