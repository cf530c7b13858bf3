import base from "./en.json";

/** The en texts: the shared ones and every feature's features/<domain>/locales/en.json, one chunk (app/i18n.ts). */
export const features = import.meta.glob<object>("../features/*/locales/en.json", { eager: true, import: "default" });
/** The server's error texts in en, from the error catalogue of @balcao/shared (vite.config.ts, errorCatalogue). */
export { default as errors } from "virtual:error-texts/en";
export default base;
