import base from "./es.json";

/** The es texts: the shared ones and every feature's features/<domain>/locales/es.json, one chunk (app/i18n.ts). */
export const features = import.meta.glob<object>("../features/*/locales/es.json", { eager: true, import: "default" });
/** The server's error texts in es, from the error catalogue of @balcao/shared (vite.config.ts, errorCatalogue). */
export { default as errors } from "virtual:error-texts/es";
export default base;
