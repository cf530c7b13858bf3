import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { LANGUAGES, PAGE_TEXT_FILES } from "./i18n";

const src = path.resolve(import.meta.dirname, "..");
const featureOf = (file: string) => /features\/([^/]+)\/locales\//.exec(file)?.[1];
const pageFeatures = new Set(PAGE_TEXT_FILES.map(featureOf));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

// The texts of some pages are not in a language's bundle but load with those pages (app/i18n.ts, loadPageTexts).
describe("the pages' own texts", () => {
  it("are the features the bundles leave out, in every language", async () => {
    const bundles = { pt: await import("../locales/bundle.pt"), en: await import("../locales/bundle.en"), es: await import("../locales/bundle.es") };
    const all = readdirSync(path.join(src, "features")).filter((feature) => {
      try {
        return statSync(path.join(src, "features", feature, "locales")).isDirectory();
      } catch {
        return false;
      }
    });
    for (const language of LANGUAGES) {
      const inBundle = Object.keys(bundles[language].features).map(featureOf);
      const inPages = PAGE_TEXT_FILES.filter((file) => file.endsWith(`/${language}.json`)).map(featureOf);
      expect([...inBundle, ...inPages].sort()).toEqual([...all].sort());
      expect(new Set(inPages)).toEqual(pageFeatures);
    }
  });

  it("are read only by those features' own modules, which other modules import without their texts", () => {
    const keys = [...pageFeatures].flatMap((feature) =>
      Object.keys(JSON.parse(readFileSync(path.join(src, "features", feature!, "locales", "pt.json"), "utf8")) as object),
    );
    const readsPageTexts = (code: string) => keys.filter((key) => new RegExp(`["'\`]${key}\\.`).test(code));
    const inPageFeature = (file: string) => pageFeatures.has(/features\/([^/]+)\//.exec(path.relative(src, file))?.[1]);
    for (const file of sources(src).filter((candidate) => !inPageFeature(candidate))) {
      const code = readFileSync(file, "utf8");
      expect({ file: path.relative(src, file), keys: readsPageTexts(code) }).toEqual({ file: path.relative(src, file), keys: [] });
      // A module of those features that another module imports statically must not read their texts either.
      for (const [, specifier] of code.matchAll(/^import [^;]*?from "(\.[^"]+)";/gms)) {
        const target = path.resolve(path.dirname(file), specifier!);
        if (!inPageFeature(target)) continue;
        const targetFile = [".ts", ".tsx"].map((ext) => target + ext).find((candidate) => statSync(candidate, { throwIfNoEntry: false }));
        expect({ imported: specifier, by: path.relative(src, file), keys: readsPageTexts(readFileSync(targetFile!, "utf8")) }).toEqual({
          imported: specifier,
          by: path.relative(src, file),
          keys: [],
        });
      }
    }
  });

  it("are waited for by every dynamic import of those features' modules from elsewhere (app/router.tsx)", () => {
    const inPageFeature = (file: string) => pageFeatures.has(/features\/([^/]+)\//.exec(path.relative(src, file))?.[1]);
    for (const file of sources(src).filter((candidate) => !inPageFeature(candidate))) {
      const code = readFileSync(file, "utf8");
      for (const match of code.matchAll(/(\w*)\(\(\) => import\("(\.[^"]+)"\)/g)) {
        if (!inPageFeature(path.resolve(path.dirname(file), match[2]!))) continue;
        expect({ file: path.relative(src, file), imported: match[2], loader: match[1] }).toEqual({
          file: "app/router.tsx",
          imported: match[2],
          loader: "withPageTexts",
        });
      }
      // Any other form of dynamic import of those modules (not the `() => import(...)` above) is not allowed.
      const imports = [...code.matchAll(/import\("(\.[^"]+)"\)/g)].filter(([, specifier]) =>
        inPageFeature(path.resolve(path.dirname(file), specifier!)),
      );
      const loaders = [...code.matchAll(/withPageTexts\(\(\) => import\("(\.[^"]+)"\)/g)];
      expect(imports.length).toBe(loaders.length);
    }
  });

  it("load with a page, in the interface language, and from then on with every language the user switches to", async () => {
    // A fresh app (test/setup.ts loaded every text into the shared one).
    vi.resetModules();
    const { default: i18n, changeLanguage, loadLanguage, loadPageTexts } = await import("./i18n");
    await loadLanguage("en");
    await i18n.changeLanguage("en");
    expect(i18n.t("tickets.tabs.open")).toBe("Inbox");
    expect(i18n.exists("todoList.title")).toBe(false);

    await loadPageTexts();
    expect(i18n.t("todoList.title")).toBe("To-do list");
    expect(i18n.t("tickets.tabs.open")).toBe("Inbox");

    await changeLanguage("es");
    expect(i18n.t("todoList.title")).toBe("Tareas");
    expect(i18n.t("backendErrors.ERR_INVALID_CREDENTIALS")).toBe("Error de autenticación. Por favor, inténtelo de nuevo.");
  });
});
