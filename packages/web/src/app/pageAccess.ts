import { canOpenPage, PAGE_ACCESS, type AccessActor, type PagePath } from "@balcao/shared";
import { matchPath } from "react-router";

const PATTERNS = Object.keys(PAGE_ACCESS) as PagePath[];

/** The PAGE_ACCESS pattern a pathname belongs to ("/tickets/12" → "/tickets/:ticketId?"), if any. */
export function pageOf(pathname: string): PagePath | undefined {
  return PATTERNS.find((pattern) => matchPath({ path: pattern, end: true }, pathname));
}

/** Whether a signed-in actor may open a pathname; pathnames outside PAGE_ACCESS are open to members. */
export function canOpenPathname(actor: AccessActor | null | undefined, pathname: string): boolean {
  const pattern = pageOf(pathname);
  return pattern ? canOpenPage(actor, pattern) : !!actor;
}
