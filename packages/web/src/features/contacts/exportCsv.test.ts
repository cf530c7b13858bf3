import { contactsToCsv } from "@balcao/shared";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "../../test/utils";
import { CONTACTS_CSV_FILE, exportContactsCsv } from "./exportCsv";
import { makeContact } from "./fixtures";

const page1 = [
  makeContact({ id: 1, name: "Ana Lúcia", number: "5511987654321", email: "ana@cliente.test" }),
  makeContact({ id: 2, name: "=SOMA(1;2)", number: "5521912345678", email: "" }),
];
const page2 = [
  makeContact({ id: 3, name: 'João; "Jota"', number: "14155550123", email: "joao@x.test" }),
  makeContact({ id: 4, name: "Grupo", number: null, email: "" }),
];

let blobs: Blob[];
let clicked: { href: string; download: string }[];

beforeEach(() => {
  blobs = [];
  clicked = [];
  Object.defineProperty(URL, "createObjectURL", {
    configurable: true,
    value: vi.fn((blob: Blob) => {
      blobs.push(blob);
      return `blob:test/${blobs.length}`;
    }),
  });
  Object.defineProperty(URL, "revokeObjectURL", { configurable: true, value: vi.fn() });
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.href, download: this.download });
  });
});

afterEach(() => vi.restoreAllMocks());

describe("exportContactsCsv", () => {
  it("fetches every page with progress, then downloads contactsToCsv(rows) as contatos.csv", async () => {
    const { calls } = mockFetch({
      "GET /api/contacts": ({ url }) => {
        const page = Number(new URL(url, "http://x").searchParams.get("pageNumber"));
        return jsonResponse(200, page === 1 ? { contacts: page1, hasMore: true } : { contacts: page2, hasMore: false });
      },
    });
    const progress = vi.fn();
    const count = await exportContactsCsv("", progress);

    expect(count).toBe(4);
    expect(calls.map((c) => new URL(c.url, "http://x").searchParams.get("pageNumber"))).toEqual(["1", "2"]);
    expect(progress.mock.calls.map(([p]) => p)).toEqual([
      { page: 1, count: 2 },
      { page: 2, count: 4 },
    ]);

    // The download: one hidden link named contatos.csv pointing at the blob, clicked once.
    expect(clicked).toEqual([{ href: "blob:test/1", download: CONTACTS_CSV_FILE }]);
    expect(CONTACTS_CSV_FILE).toBe("contatos.csv");
    expect(blobs).toHaveLength(1);
    expect(blobs[0]!.type).toBe("text/csv;charset=utf-8");

    // The content is exactly the shared helper's over name, number and email of every page.
    const expected = contactsToCsv([...page1, ...page2].map(({ name, number, email }) => ({ name, number, email })));
    const bytes = new Uint8Array(await blobs[0]!.arrayBuffer());
    expect(bytes.slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf])); // UTF-8 BOM for pt-BR spreadsheets
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    expect(text).toBe(expected);
    expect(text.split("\r\n")).toEqual([
      "\uFEFFname;number;email",
      "Ana Lúcia;55 11 98765 4321;ana@cliente.test",
      `"'=SOMA(1;2)";55 21 91234 5678;`,
      '"João; ""Jota""";1 415 555 0123;joao@x.test',
      "Grupo;;",
      "",
    ]);
  });

  it("sends the list's search and stops when cancelled", async () => {
    const controller = new AbortController();
    const { calls } = mockFetch({
      "GET /api/contacts": () => {
        controller.abort();
        return jsonResponse(200, { contacts: page1, hasMore: true });
      },
    });
    await expect(exportContactsCsv("ana", () => {}, controller.signal)).rejects.toThrow();
    expect(new URL(calls[0]!.url, "http://x").searchParams.get("searchParam")).toBe("ana");
    expect(clicked).toHaveLength(0);
  });
});
