import { app, auth, common, errors, login, validation } from "./es.json";

/**
 * The es texts the light login page reads before the app loads (app/loginShell.tsx, issue 20): a few groups
 * of es.json, not the app's whole bundle (bundle.es.ts). The server's error texts come with the first error.
 */
export default { app, auth, common, errors, login, validation };
