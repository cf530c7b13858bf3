import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import StarOutline from "@mui/icons-material/StarBorder";
import { describe, expect, it, vi } from "vitest";
import { fakeSession, jsonResponse, makeUser, mockFetch, renderPage } from "../../test/utils";
import { containsSearch, patchPagedLists } from "./listCache";
import { ListPage, useRecordDialog } from "./ListPage";
import { queryList, useListSearch, usePagedList, usePagedQuery } from "./useListData";
import { useQuery } from "@tanstack/react-query";

interface Fruit {
  id: number;
  name: string;
  mine: boolean;
}
interface FruitPage {
  fruits: Fruit[];
  hasMore: boolean;
}

const fruit = (id: number, name: string, mine = true): Fruit => ({ id, name, mine });
const lists = ["fruits", "list"] as const;

interface HarnessProps {
  canAdd?: boolean;
  canManage?: boolean;
  run?: (fruit: Fruit) => Promise<unknown>;
}

/** A page of fruits exactly as a feature builds one. */
function FruitsPage({ canAdd = true, canManage = true, run = async () => {} }: HarnessProps) {
  const search = useListSearch();
  const list = usePagedList(usePagedQuery<FruitPage>([...lists, search.searchParam], "/fruits", search.searchParam), (page) => page.fruits);
  const dialog = useRecordDialog<Fruit>();
  const favourite = vi.fn();
  return (
    <ListPage
      title="Frutas"
      search={search}
      headerActions={<button type="button">Exportar</button>}
      add={canAdd ? { label: "Adicionar fruta", onClick: dialog.openNew } : undefined}
      list={list}
      testId="fruits-scroll"
      rowProps={(f) => ({ "data-testid": "fruit-row", "data-id": f.id })}
      columns={[
        { header: "Nome", cell: (f) => f.name },
        { header: "Sigla", align: "center", cell: (f) => f.name.slice(0, 2).toUpperCase(), cellProps: { "data-testid": "fruit-code" } },
      ]}
      rowActions={
        canManage
          ? {
              header: "Ações",
              actions: (f) => [
                { label: `Favoritar ${f.name}`, tooltip: "Favoritar", icon: <StarOutline />, onClick: favourite },
                { kind: "edit", label: `Editar ${f.name}`, onClick: () => dialog.openEdit(f) },
                f.mine && { kind: "delete", label: `Excluir ${f.name}` },
              ],
            }
          : undefined
      }
      deletion={{ title: (f) => `Excluir ${f.name}?`, message: "Não dá para desfazer.", run, successMessage: "Fruta excluída." }}
      empty={{ title: "Nenhuma fruta", description: "Adicione a primeira." }}
    >
      {dialog.open && <p role="note">{dialog.record ? `editando ${dialog.record.name}` : "nova fruta"}</p>}
    </ListPage>
  );
}

const session = { session: fakeSession(makeUser()), path: "/" };
const searchOf = (url: string) => new URL(url, "http://x").searchParams;

describe("ListPage", () => {
  it("shows the header, the rows with their columns, and row actions by permission", async () => {
    mockFetch({ "GET /api/fruits": () => jsonResponse(200, { fruits: [fruit(1, "Abacaxi"), fruit(2, "Banana", false)], hasMore: false }) });
    renderPage(<FruitsPage />, session);
    expect(screen.getByRole("heading", { name: "Frutas" })).toBeInTheDocument();
    expect(screen.getByRole("searchbox", { name: "Pesquisar" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Exportar" })).toBeInTheDocument();
    const table = screen.getByRole("table", { name: "Frutas" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Nome", "Sigla", "Ações"]);
    const banana = (await within(table).findByText("Banana")).closest("tr")!;
    expect(banana).toHaveAttribute("data-id", "2");
    expect(within(banana).getByTestId("fruit-code")).toHaveTextContent("BA");
    expect(
      within(banana)
        .getAllByRole("button")
        .map((b) => b.getAttribute("aria-label")),
    ).toEqual(["Favoritar Banana", "Editar Banana"]);
    expect(screen.getByRole("button", { name: "Excluir Abacaxi" })).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Editar Banana" }));
    expect(screen.getByRole("note")).toHaveTextContent("editando Banana");
    await userEvent.click(screen.getByRole("button", { name: "Adicionar fruta" }));
    expect(screen.getByRole("note")).toHaveTextContent("nova fruta");
  });

  it("hides the add button and the actions column without permission", async () => {
    mockFetch({ "GET /api/fruits": () => jsonResponse(200, { fruits: [fruit(1, "Abacaxi")], hasMore: false }) });
    renderPage(<FruitsPage canAdd={false} canManage={false} />, session);
    expect(await screen.findByText("Abacaxi")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Adicionar fruta" })).not.toBeInTheDocument();
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Nome", "Sigla"]);
    expect(screen.queryByRole("button", { name: /Editar|Excluir/ })).not.toBeInTheDocument();
  });

  it("searches 500 ms after the last keystroke with the trimmed lower-cased text, from page 1", async () => {
    const { calls } = mockFetch({
      "GET /api/fruits": ({ url }) =>
        jsonResponse(200, {
          fruits: searchOf(url).get("searchParam") === "ban" ? [fruit(2, "Banana")] : [fruit(1, "Abacaxi"), fruit(2, "Banana")],
          hasMore: false,
        }),
    });
    renderPage(<FruitsPage />, session);
    expect(await screen.findByText("Abacaxi")).toBeInTheDocument();
    await userEvent.type(screen.getByRole("searchbox", { name: "Pesquisar" }), " BAN ");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls).toHaveLength(1);
    await waitFor(() => expect(screen.queryByText("Abacaxi")).not.toBeInTheDocument());
    expect(calls.map((c) => searchOf(c.url).get("searchParam"))).toEqual(["", "ban"]);
    expect(searchOf(calls[1]!.url).get("pageNumber")).toBe("1");
  });

  it("asks for the next page when scrolled within 100 px of the end, while there is more", async () => {
    const { calls } = mockFetch({
      "GET /api/fruits": ({ url }) =>
        jsonResponse(
          200,
          searchOf(url).get("pageNumber") === "1"
            ? { fruits: [fruit(1, "Abacaxi")], hasMore: true }
            : { fruits: [fruit(2, "Banana")], hasMore: false },
        ),
    });
    renderPage(<FruitsPage />, session);
    expect(await screen.findByText("Abacaxi")).toBeInTheDocument();
    const area = screen.getByTestId("fruits-scroll");
    Object.defineProperty(area, "scrollHeight", { configurable: true, value: 1000 });
    Object.defineProperty(area, "clientHeight", { configurable: true, value: 300 });
    area.scrollTop = 500;
    fireEvent.scroll(area);
    expect(calls).toHaveLength(1);
    area.scrollTop = 650;
    fireEvent.scroll(area);
    expect(await screen.findByText("Banana")).toBeInTheDocument();
    expect(calls.map((c) => searchOf(c.url).get("pageNumber"))).toEqual(["1", "2"]);
    fireEvent.scroll(area);
    expect(calls).toHaveLength(2);
  });

  it("shows a spinner while loading, then the empty state; a failure shows the error state", async () => {
    let answer: () => void = () => {};
    mockFetch({ "GET /api/fruits": () => new Promise((resolve) => (answer = () => resolve(jsonResponse(200, { fruits: [], hasMore: false })))) });
    const { unmount } = renderPage(<FruitsPage />, session);
    expect(await screen.findByRole("progressbar", { name: "Carregando..." })).toBeInTheDocument();
    expect(screen.queryByText("Nenhuma fruta")).not.toBeInTheDocument();
    answer();
    expect(await screen.findByText("Nenhuma fruta")).toBeInTheDocument();
    expect(screen.getByText("Adicione a primeira.")).toBeInTheDocument();
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
    unmount();

    mockFetch({ "GET /api/fruits": () => jsonResponse(500, { error: "ERR_INTERNAL" }) });
    renderPage(<FruitsPage />, session);
    expect(await screen.findByText("Não foi possível carregar a lista de registros")).toBeInTheDocument();
    expect(screen.queryByText("Nenhuma fruta")).not.toBeInTheDocument();
  });

  it("deletes only after confirmation, toasts, and keeps the row when the server refuses", async () => {
    const run = vi.fn<(f: Fruit) => Promise<unknown>>().mockRejectedValueOnce(new Error("ERR_NO_PERMISSION")).mockResolvedValueOnce(undefined);
    mockFetch({ "GET /api/fruits": () => jsonResponse(200, { fruits: [fruit(1, "Abacaxi")], hasMore: false }) });
    renderPage(<FruitsPage run={run} />, session);

    await userEvent.click(await screen.findByRole("button", { name: "Excluir Abacaxi" }));
    let dialog = await screen.findByRole("dialog", { name: "Excluir Abacaxi?" });
    expect(within(dialog).getByText("Não dá para desfazer.")).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(run).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole("button", { name: "Excluir Abacaxi" }));
    dialog = await screen.findByRole("dialog", { name: "Excluir Abacaxi?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Excluir" }));
    expect(await screen.findByText("Você não tem permissão para acessar este recurso.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole("button", { name: "Excluir Abacaxi" }));
    await userEvent.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Excluir" }));
    expect(await screen.findByText("Fruta excluída.")).toBeInTheDocument();
    expect(run).toHaveBeenLastCalledWith(fruit(1, "Abacaxi"));
  });

  it("shows live changes patched into the cached pages without refetching", async () => {
    const { calls } = mockFetch({ "GET /api/fruits": () => jsonResponse(200, { fruits: [fruit(1, "Abacaxi"), fruit(3, "Caqui")], hasMore: false }) });
    const { queryClient } = renderPage(<FruitsPage />, session);
    expect(await screen.findByText("Caqui")).toBeInTheDocument();
    const patch = (change: Parameters<typeof patchPagedLists<"fruits", Fruit>>[2]) =>
      act(() =>
        patchPagedLists(
          queryClient,
          { listsKey: lists, field: "fruits", matches: (f, s) => containsSearch(s, f.name), compare: (a, b) => a.name.localeCompare(b.name) },
          change,
        ),
      );
    patch({ upsert: fruit(2, "Banana") });
    const names = () => screen.getAllByTestId("fruit-row").map((r) => within(r).getAllByRole("cell")[0]!.textContent);
    await waitFor(() => expect(names()).toEqual(["Abacaxi", "Banana", "Caqui"]));
    patch({ upsert: fruit(3, "Amora") });
    await waitFor(() => expect(names()).toEqual(["Abacaxi", "Amora", "Banana"]));
    patch({ remove: 1 });
    await waitFor(() => expect(names()).toEqual(["Amora", "Banana"]));
    expect(calls).toHaveLength(1);
  });
});

describe("queryList", () => {
  it("shows a whole-list query (no pages) with its states", async () => {
    function Plain() {
      const query = useQuery({ queryKey: ["plain"], queryFn: async () => [fruit(1, "Abacaxi")] });
      return (
        <ListPage title="Simples" list={queryList(query)} columns={[{ header: "Nome", cell: (f: Fruit) => f.name }]} empty={{ title: "Vazio" }} />
      );
    }
    mockFetch({});
    renderPage(<Plain />, session);
    expect(await screen.findByText("Abacaxi")).toBeInTheDocument();
    expect(screen.queryByRole("searchbox")).not.toBeInTheDocument();
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
  });
});
