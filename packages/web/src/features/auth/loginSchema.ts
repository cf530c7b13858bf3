/** The login form's schema, in its own chunk: the login page shows without zod (issue 20, LoginPage). */
export { loginBody } from "@balcao/shared";
