import { app, auth, common, errors, login, validation } from "./pt.json";

/**
 * The pt texts the light login page reads before the app loads (app/loginShell.tsx, issue 20): a few groups
 * of pt.json, not the app's whole bundle (bundle.pt.ts). The server's error texts come with the first error.
 */
export default { app, auth, common, errors, login, validation };
