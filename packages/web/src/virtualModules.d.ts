// The error catalogue cut for the browser by vite.config.ts (errorCatalogue): one language's texts, the wire texts.
declare module "virtual:error-texts/*" {
  const texts: Record<string, string>;
  export default texts;
}
declare module "virtual:error-wires" {
  const wires: Record<string, string>;
  export default wires;
}
