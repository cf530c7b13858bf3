import { errorTexts, LANGUAGES } from "@balcao/shared";
import { enqueueSnackbar } from "./toasts";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../api/client";
import i18n from "../app/i18n";
import { errorText, toastError, translateValidation } from "./toastError";

vi.mock("./toasts", async (original) => ({ ...(await original<typeof import("./toasts")>()), enqueueSnackbar: vi.fn() }));

describe("toastError (spec §8)", () => {
  it("translates a known server code", () => {
    expect(errorText(new ApiError(401, { error: "ERR_INVALID_CREDENTIALS" }))).toBe("Erro de autenticação. Por favor, tente novamente.");
  });

  it("interpolates the error meta", () => {
    expect(errorText(new ApiError(400, { error: "ERR_USER_LIMIT_REACHED", meta: { limit: 3 } }))).toBe("Número máximo de usuários já alcançado: 3");
  });

  it("translates a code the server names by its text (wire), in the interface language", async () => {
    await i18n.changeLanguage("en");
    try {
      expect(errorText(new ApiError(403, { error: "Acesso não permitido" }))).toBe("Access denied");
    } finally {
      await i18n.changeLanguage("pt");
    }
  });

  it("has every code's text of the catalogue in each language (the bundles' cut of it, vite.config.ts)", () => {
    for (const language of LANGUAGES) expect(i18n.getResource(language, "translation", "backendErrors")).toMatchObject(errorTexts(language));
  });

  it("shows the raw text when the code is unknown", () => {
    expect(errorText(new ApiError(400, { error: "Something odd happened" }))).toBe("Something odd happened");
    expect(errorText(new Error("Failed to fetch"))).toBe("Failed to fetch");
  });

  it("falls back to the generic text ('An error occurred!' in English)", async () => {
    expect(errorText(new ApiError(500, { error: "" }))).toBe("Ocorreu um erro!");
    expect(errorText(undefined)).toBe("Ocorreu um erro!");
    await i18n.changeLanguage("en");
    expect(errorText(undefined)).toBe("An error occurred!");
  });

  it("enqueues an error toast with the text", () => {
    toastError(new ApiError(400, { error: "ERR_DUPLICATED_EMAIL" }));
    expect(enqueueSnackbar).toHaveBeenCalledWith("Já existe um usuário com este e-mail.", { variant: "error" });
  });

  it("passes the shared schema texts through i18n", () => {
    expect(translateValidation("Too Short!")).toBe("Muito curto!");
    expect(translateValidation("Required")).toBe("Obrigatório");
    expect(translateValidation("Mensagem muito curta")).toBe("Mensagem muito curta");
    expect(translateValidation(undefined)).toBeUndefined();
  });
});
