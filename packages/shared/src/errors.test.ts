import { describe, expect, it } from "vitest";
import { ERROR_CODES, ERRORS, errorCodeOf, errorTexts, wireError, type ErrorDefinition } from "./errors";

describe("error catalogue", () => {
  it("gives every code an HTTP error status and a text in each language", () => {
    for (const code of ERROR_CODES) {
      const def: ErrorDefinition = ERRORS[code];
      expect(def.status, code).toBeGreaterThanOrEqual(400);
      expect(def.status, code).toBeLessThan(600);
      for (const language of ["pt", "en", "es"] as const) expect(def[language].trim().length, `${code} ${language}`).toBeGreaterThan(0);
    }
  });

  it("maps every wire text back to one code", () => {
    const wires = ERROR_CODES.map(wireError);
    expect(new Set(wires).size).toBe(wires.length);
    for (const code of ERROR_CODES) expect(errorCodeOf(wireError(code))).toBe(code);
    expect(wireError("ERR_ACCESS_DENIED")).toBe("Acesso não permitido");
    expect(errorCodeOf("Selecione uma fila")).toBe("ERR_QUEUE_REQUIRED");
    expect(errorCodeOf("something else")).toBeUndefined();
  });

  it("serves a language's texts for i18n resources", () => {
    expect(errorTexts("en").ERR_NO_PERMISSION).toBe(ERRORS.ERR_NO_PERMISSION.en);
    expect(Object.keys(errorTexts("es"))).toHaveLength(ERROR_CODES.length);
  });
});
