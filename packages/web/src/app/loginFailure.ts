/** The error catalogue and failure texts, a chunk the login shell loads with a login's first failure (issue 20). */
export { errorTexts } from "@balcao/shared";
export { failureText } from "../components/failureText";
