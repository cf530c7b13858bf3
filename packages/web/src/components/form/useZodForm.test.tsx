import { loginBody } from "@balcao/shared";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderPage } from "../../test/utils";
import { useZodForm, type ZodSchemaLoader } from "./useZodForm";

type LoginValues = { email: string; password: string };

function LazyLoginForm({ load, save }: { load: ZodSchemaLoader<LoginValues, LoginValues>; save: (values: LoginValues) => Promise<void> }) {
  const form = useZodForm(load, { defaultValues: { email: "", password: "" } });
  const submit = form.submit(save);
  return (
    <form noValidate onSubmit={(event) => void submit(event).catch(() => undefined)}>
      <input aria-label="E-mail" {...form.register("email")} />
      <input aria-label="Senha" {...form.register("password")} />
      <span>{form.fieldError("email").helperText}</span>
      <button type="submit">Entrar</button>
    </form>
  );
}

describe("useZodForm with a schema loader (issue 20)", () => {
  it("loads the schema after the first render, validates and submits the parsed values", async () => {
    const load = vi.fn(() => Promise.resolve(loginBody));
    const save = vi.fn(() => Promise.resolve());
    renderPage(<LazyLoginForm load={load} save={save} />);
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));

    await userEvent.click(screen.getByRole("button", { name: "Entrar" }));
    expect(await screen.findByText("Obrigatório")).toBeInTheDocument();
    expect(save).not.toHaveBeenCalled();

    await userEvent.type(screen.getByLabelText("E-mail"), " Ana@Acme.test ");
    await userEvent.type(screen.getByLabelText("Senha"), "secret");
    await userEvent.click(screen.getByRole("button", { name: "Entrar" }));
    await vi.waitFor(() => expect(save).toHaveBeenCalledWith({ email: "ana@acme.test", password: "secret" }));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("tries the download again at the next validation when it failed", async () => {
    const load = vi.fn<ZodSchemaLoader<LoginValues, LoginValues>>().mockRejectedValueOnce(new Error("offline")).mockResolvedValue(loginBody);
    const save = vi.fn(() => Promise.resolve());
    renderPage(<LazyLoginForm load={load} save={save} />);
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));

    await userEvent.click(screen.getByRole("button", { name: "Entrar" }));
    expect(await screen.findByText("Obrigatório")).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
    expect(save).not.toHaveBeenCalled();
  });
});
