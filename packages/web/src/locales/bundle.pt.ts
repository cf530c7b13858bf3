import base from "./pt.json";

/**
 * The pt texts: the shared ones and the features' features/<domain>/locales/pt.json, one chunk (app/i18n.ts).
 * The texts of the pages few open come with those pages instead (app/i18n.ts, PAGE_TEXTS: keep both lists equal).
 */
export const features = import.meta.glob<object>(
  ["../features/*/locales/pt.json", "!../features/{campaigns,companies,contact-lists,helps,kanban,messages-api,plans,queues,quick-messages,settings,simulator,todolist,webhooks}/locales/pt.json"],
  { eager: true, import: "default" },
);
/** The server's error texts in pt, from the error catalogue of @balcao/shared (vite.config.ts, errorCatalogue). */
export { default as errors } from "virtual:error-texts/pt";
export default base;
