import { quickMessageBody, userUpdateBody } from "@balcao/shared";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../api/client";
import { fakeSession, makeUser, renderPage } from "../../test/utils";
import { DialogForm, FormDialog } from "./FormDialog";
import { formFieldOf, serverFieldError } from "./serverErrors";
import { useZodForm, type SubmitOptions } from "./useZodForm";

type QuickValues = { shortcode: string; message: string };

/** A quick-message form on the shared schema; `save` plays the server. */
function QuickForm({
  save,
  onClose,
  options,
}: {
  save: (values: QuickValues) => Promise<void>;
  onClose: () => void;
  options?: SubmitOptions<QuickValues>;
}) {
  const form = useZodForm(quickMessageBody, { defaultValues: { shortcode: "", message: "" } });
  const onSubmit = form.submit(async (values) => {
    await save(values);
    onClose();
  }, options);
  return (
    <DialogForm onSubmit={onSubmit} onCancel={onClose} busy={form.busy} submitLabel="Gravar">
      <label>
        Atalho
        <input {...form.field("shortcode", "Sem a barra")} />
      </label>
      <p data-testid="shortcode-help">{form.fieldError("shortcode", "Sem a barra").helperText}</p>
      <label>
        Mensagem
        <textarea {...form.field("message")} />
      </label>
      <p data-testid="message-help">{form.fieldError("message").helperText}</p>
    </DialogForm>
  );
}

function Harness(props: { save: (values: QuickValues) => Promise<void>; options?: SubmitOptions<QuickValues> }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        abrir
      </button>
      <FormDialog open={open} onClose={() => setOpen(false)} title="Nova resposta">
        <QuickForm {...props} onClose={() => setOpen(false)} />
      </FormDialog>
    </>
  );
}

const session = () => ({ session: fakeSession(makeUser()) });
const fill = async (shortcode: string, message: string) => {
  if (shortcode) await userEvent.type(screen.getByLabelText("Atalho"), shortcode);
  if (message) await userEvent.type(screen.getByLabelText("Mensagem"), message);
};

describe("FormDialog + useZodForm", () => {
  it("is a titled dialog whose form starts afresh each time it opens; Cancel closes it", async () => {
    const save = vi.fn(async () => {});
    renderPage(<Harness save={save} />, session());
    const dialog = screen.getByRole("dialog", { name: "Nova resposta" });
    await userEvent.type(within(dialog).getByLabelText("Atalho"), "oi");
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await userEvent.click(screen.getByRole("button", { name: "abrir" }));
    expect(await screen.findByLabelText("Atalho")).toHaveValue("");
    expect(save).not.toHaveBeenCalled();
  });

  it("validates with the shared schema, shows its texts under the fields and sends nothing", async () => {
    const save = vi.fn(async () => {});
    renderPage(<Harness save={save} />, session());
    expect(screen.getByTestId("shortcode-help")).toHaveTextContent("Sem a barra");
    await userEvent.click(screen.getByRole("button", { name: "Gravar" }));
    expect(await screen.findByTestId("shortcode-help")).toHaveTextContent("Obrigatório");
    expect(screen.getByTestId("message-help")).toHaveTextContent("Obrigatório");
    expect(screen.getByLabelText("Atalho")).toHaveAttribute("name", "shortcode");
    await fill("oi", "ok");
    await userEvent.click(screen.getByRole("button", { name: "Gravar" }));
    await waitFor(() => expect(screen.getByTestId("shortcode-help")).toHaveTextContent("Muito curto!"));
    expect(save).not.toHaveBeenCalled();
  });

  it("submits the schema's output on Enter (trimmed), disables the buttons while saving and closes", async () => {
    let finish: () => void = () => {};
    const save = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    renderPage(<Harness save={save} />, session());
    await fill("  bomdia  ", "Bom dia!");
    await userEvent.type(screen.getByLabelText("Atalho"), "{Enter}");
    await waitFor(() => expect(save).toHaveBeenCalledWith({ shortcode: "bomdia", message: "Bom dia!" }));
    expect(screen.getByRole("button", { name: "Gravar" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Cancelar" })).toBeDisabled();
    expect(within(screen.getByRole("button", { name: "Gravar" })).getByRole("progressbar")).toBeInTheDocument();
    finish();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("puts the server's issues under their fields, focuses the first, and toasts the error too", async () => {
    const save = vi.fn(async () => {
      throw new ApiError(400, {
        error: "Too Short!",
        issues: [
          { path: "message", message: "Too Short!" },
          { path: "unknownField", message: "Ignored" },
        ],
      });
    });
    renderPage(<Harness save={save} />, session());
    await fill("oi1", "abc");
    await userEvent.type(screen.getByLabelText("Atalho"), "{Enter}");
    await waitFor(() => expect(screen.getByTestId("message-help")).toHaveTextContent("Muito curto!"));
    expect(screen.getByLabelText("Mensagem")).toHaveFocus();
    expect(screen.getByTestId("shortcode-help")).toHaveTextContent("Sem a barra");
    expect(screen.queryByText("Ignored")).not.toBeInTheDocument();
    // The toast carries the answer's text as well.
    expect(await screen.findAllByText("Muito curto!")).toHaveLength(2);
    expect(screen.getByRole("dialog")).toBeInTheDocument();
  });

  it("shows a mapped error code's translation under its field; other codes only as a toast", async () => {
    const save = vi
      .fn<(values: QuickValues) => Promise<void>>()
      .mockRejectedValueOnce(new ApiError(400, { error: "ERR_DUPLICATED_SHORTCODE" }))
      .mockRejectedValueOnce(new ApiError(400, { error: "ERR_USER_LIMIT_REACHED", meta: { limit: 3 } }));
    renderPage(<Harness save={save} options={{ codeFields: { ERR_DUPLICATED_SHORTCODE: "shortcode" } }} />, session());
    await fill("oi1", "Olá!");
    await userEvent.type(screen.getByLabelText("Atalho"), "{Enter}");
    await waitFor(() => expect(screen.getByTestId("shortcode-help")).toHaveTextContent("Já existe uma resposta rápida com este atalho."));
    expect(screen.getAllByText("Já existe uma resposta rápida com este atalho.")).toHaveLength(2);
    expect(screen.getByLabelText("Atalho")).toHaveFocus();

    await userEvent.type(screen.getByLabelText("Atalho"), "2{Enter}");
    expect(await screen.findByText("Número máximo de usuários já alcançado: 3")).toBeInTheDocument();
    expect(screen.getByTestId("shortcode-help")).toHaveTextContent("Sem a barra");
  });

  it("lets `prepare` rewrite the values before the schema sees them", async () => {
    const seen = vi.fn();
    function PasswordForm() {
      const form = useZodForm(userUpdateBody, {
        defaultValues: { name: "Ana", password: "" },
        prepare: (values) => ({ ...values, name: values.name?.toUpperCase() }),
      });
      const onSubmit = form.submit(async (values) => seen(values));
      return (
        <DialogForm onSubmit={onSubmit} onCancel={() => {}} submitLabel="Gravar">
          <input aria-label="Senha" {...form.field("password")} />
        </DialogForm>
      );
    }
    renderPage(
      <FormDialog open onClose={() => {}} title="Senha">
        <PasswordForm />
      </FormDialog>,
      session(),
    );
    await userEvent.click(screen.getByRole("button", { name: "Gravar" }));
    // The update schema turns a blank password into "keep the current one".
    await waitFor(() => expect(seen).toHaveBeenCalledWith({ name: "ANA", password: undefined }));
  });
});

describe("formFieldOf", () => {
  it("finds the deepest part of a server path the form holds", () => {
    const values = { name: "", queueIds: [1], extraInfo: [{ name: "CPF", value: "" }] };
    expect(formFieldOf(values, "name")).toBe("name");
    expect(formFieldOf(values, "extraInfo.0.name")).toBe("extraInfo.0.name");
    expect(formFieldOf(values, "queueIds.7")).toBe("queueIds");
    expect(formFieldOf(values, "extraInfo.3.value")).toBe("extraInfo");
    expect(formFieldOf(values, "")).toBeUndefined();
    expect(formFieldOf(values, "password")).toBeUndefined();
  });
});

describe("serverFieldError (forms kept in component state)", () => {
  const fields = { ERR_QUEUE_REQUIRED: "queue", queueId: "queue", ERR_OTHER_OPEN_TICKET: "contact" } as const;

  it("maps a code, also when the answer carries the spec's wire text, to its field with the translated text", () => {
    expect(serverFieldError(new ApiError(400, { error: "ERR_OTHER_OPEN_TICKET" }), fields)).toEqual({
      field: "contact",
      message: "Já existe um atendimento aberto para este contato.",
    });
    expect(serverFieldError(new ApiError(400, { error: "Selecione uma fila" }), fields)).toEqual({ field: "queue", message: "Selecione uma fila" });
  });

  it("maps a validation issue by its body path; anything else belongs to no field", () => {
    expect(serverFieldError(new ApiError(400, { error: "Invalid id", issues: [{ path: "queueId", message: "Invalid id" }] }), fields)).toEqual({
      field: "queue",
      message: "Invalid id",
    });
    expect(serverFieldError(new ApiError(400, { error: "ERR_NO_PERMISSION" }), fields)).toBeUndefined();
    expect(serverFieldError(new Error("Failed to fetch"), fields)).toBeUndefined();
  });
});
