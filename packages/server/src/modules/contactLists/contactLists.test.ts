/**
 * Contact lists and their items through the HTTP API: validation texts (spec §5), CRUD, pagination, search,
 * permissions, tenant isolation, spreadsheet uploads (.xlsx and .csv, inline and through the job runner,
 * bad rows with their line and reason), the WhatsApp check through a live simulator connection, and the
 * `ContactList` / `ContactListItem` socket events.
 */
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContactListDTO, ContactListEvent, ContactListImportDTO, ContactListItemDTO, ContactListItemEvent } from "@balcao/shared";
import { contactListImports, contactListItems } from "../../db/schema";
import { buildTenant, collectEvents, connectSocket, nextEventWhere, type Session } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/testApp";
import { INLINE_IMPORT_MAX_BYTES } from "./imports";
import { contactListsService } from "./routes";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ JOBS_POLL_SECONDS: "0.5", SIMULATOR_ACK_DELAY_MS: "0" });
});
afterAll(async () => {
  await t.close();
});

const poll = <T>(fn: () => T | Promise<T>, timeout = 20_000) => expect.poll(fn, { timeout, interval: 100 });
const api = (s: Session, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: s.headers, ...(payload ? { payload } : {}) });

function multipart(file: { name: string; type: string; data: Buffer }, field = "file") {
  const boundary = `----balcao${randomBytes(8).toString("hex")}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

const upload = (s: Session, listId: number, file: { name: string; type: string; data: Buffer }) => {
  const form = multipart(file);
  return t.app.inject({
    method: "POST",
    url: `/api/contact-lists/${listId}/upload`,
    headers: { ...s.headers, ...form.headers },
    payload: form.payload,
  });
};

async function xlsx(rows: (string | number | null)[][]): Promise<{ name: string; type: string; data: Buffer }> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Contatos");
  for (const row of rows) sheet.addRow(row);
  return {
    name: "contatos.xlsx",
    type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    data: Buffer.from(await workbook.xlsx.writeBuffer()),
  };
}

const csv = (text: string, encoding: BufferEncoding = "utf8") => ({ name: "contatos.csv", type: "text/csv", data: Buffer.from(text, encoding) });

async function newList(s: Session, name = `Lista ${randomBytes(3).toString("hex")}`): Promise<ContactListDTO> {
  const res = await api(s, "POST", "/contact-lists", { name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function newItem(s: Session, contactListId: number, fields: { name?: string; number: string; email?: string }): Promise<ContactListItemDTO> {
  const res = await api(s, "POST", "/contact-list-items", { name: "Cliente Teste", email: "", ...fields, contactListId });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const itemsOf = async (companyId: number, contactListId: number) =>
  t.ctx.database.db
    .select()
    .from(contactListItems)
    .where(and(eq(contactListItems.companyId, companyId), eq(contactListItems.contactListId, contactListId)));

describe("validation (spec §5)", () => {
  it("answers the spec's texts for list names and item fields", async () => {
    const d = await buildTenant(t.app);
    for (const [name, text] of [
      ["", "Required"],
      ["A", "Too Short!"],
      ["x".repeat(51), "Too Long!"],
    ] as const) {
      const res = await api(d.adminSession, "POST", "/contact-lists", { name });
      expect(res.statusCode).toBe(400);
      expect(res.json().issues).toContainEqual({ path: "name", message: text });
    }
    const list = await newList(d.adminSession);
    const cases: [object, string, string][] = [
      [{ name: "", number: "5511987654321" }, "name", "Required"],
      [{ name: "J", number: "5511987654321" }, "name", "Too Short!"],
      [{ name: "x".repeat(51), number: "5511987654321" }, "name", "Too Long!"],
      [{ name: "Joana", number: "1234567" }, "number", "Too Short!"],
      [{ name: "Joana", number: "9".repeat(51) }, "number", "Too Long!"],
      [{ name: "Joana", number: "abcdefghij" }, "number", "Invalid number"],
      [{ name: "Joana", number: "0000000000" }, "number", "Invalid number"],
      [{ name: "Joana", number: "5511987654321", email: "joana@" }, "email", "Invalid email"],
    ];
    for (const [body, path, message] of cases) {
      const res = await api(d.adminSession, "POST", "/contact-list-items", { email: "", ...body, contactListId: list.id });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().issues).toContainEqual({ path, message });
    }
    const noList = await api(d.adminSession, "POST", "/contact-list-items", { name: "Joana", number: "5511987654321" });
    expect(noList.statusCode).toBe(400);
    expect(noList.json().issues[0].path).toBe("contactListId");
    expect(await itemsOf(d.company.id, list.id)).toEqual([]);
  });
});

describe("lists and items", () => {
  it("creates, shows, renames, lists with counts, searches and deletes lists", async () => {
    const d = await buildTenant(t.app);
    const names = Array.from({ length: 23 }, (_, i) => `Lista ${String(i).padStart(2, "0")}`);
    for (const name of names) await newList(d.adminSession, name);
    const clientes = await newList(d.adminSession, "Clientes São Paulo");
    await newItem(d.adminSession, clientes.id, { name: "Ana Souza", number: "5511987650001" });
    await newItem(d.adminSession, clientes.id, { name: "Bruno Lima", number: "(11) 98765-0002" });

    const first = await api(d.adminSession, "GET", "/contact-lists/?searchParam=&pageNumber=1");
    expect(first.statusCode).toBe(200);
    expect(first.json().records).toHaveLength(20);
    expect(first.json().hasMore).toBe(true);
    expect(first.json().records[0]).toMatchObject({ name: "Clientes São Paulo", contactsCount: 2, companyId: d.company.id });
    const second = await api(d.adminSession, "GET", "/contact-lists?pageNumber=2");
    expect(second.json().records).toHaveLength(4);
    expect(second.json().hasMore).toBe(false);

    const found = await api(d.adminSession, "GET", "/contact-lists/?searchParam=sao%20paulo&pageNumber=1");
    expect(found.json().records.map((r: ContactListDTO) => r.id)).toEqual([clientes.id]);

    const all = await api(d.adminSession, "GET", `/contact-lists/list?companyId=${d.company.id}`);
    expect(all.statusCode).toBe(200);
    expect(all.json()).toHaveLength(24);

    const shown = await api(d.adminSession, "GET", `/contact-lists/${clientes.id}`);
    expect(shown.json()).toMatchObject({ id: clientes.id, name: "Clientes São Paulo", contactsCount: 2 });
    const renamed = await api(d.adminSession, "PUT", `/contact-lists/${clientes.id}`, { name: "Clientes SP" });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: "Clientes SP", contactsCount: 2 });

    const removed = await api(d.adminSession, "DELETE", `/contact-lists/${clientes.id}`);
    expect(removed.statusCode).toBe(204);
    expect((await api(d.adminSession, "GET", `/contact-lists/${clientes.id}`)).statusCode).toBe(404);
    expect(await itemsOf(d.company.id, clientes.id)).toEqual([]);
  });

  it("items: normalized numbers, one per list, pages, search, edit and delete", async () => {
    const d = await buildTenant(t.app);
    const list = await newList(d.adminSession);
    const other = await newList(d.adminSession);
    const maria = await newItem(d.adminSession, list.id, { name: "Maria Souza", number: "+55 (11) 98765-4321", email: "Maria@Exemplo.com" });
    expect(maria).toMatchObject({ number: "5511987654321", email: "maria@exemplo.com", isWhatsappValid: null, contactListId: list.id });

    const dup = await api(d.adminSession, "POST", "/contact-list-items", {
      name: "Outra",
      number: "5511987654321",
      email: "",
      contactListId: list.id,
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().error).toBe("ERR_DUPLICATED_CONTACT_LIST_ITEM");
    // The same number in another list is fine.
    await newItem(d.adminSession, other.id, { name: "Maria Souza", number: "5511987654321" });

    for (let i = 0; i < 21; i++)
      await newItem(d.adminSession, list.id, { name: `Cliente ${String(i).padStart(2, "0")}`, number: `55119876500${String(i).padStart(2, "0")}` });
    const page1 = await api(d.adminSession, "GET", `/contact-list-items?searchParam=&pageNumber=1&contactListId=${list.id}`);
    expect(page1.statusCode).toBe(200);
    expect(page1.json().contacts).toHaveLength(20);
    expect(page1.json().hasMore).toBe(true);
    const page2 = await api(d.adminSession, "GET", `/contact-list-items?pageNumber=2&contactListId=${list.id}`);
    expect(page2.json().contacts).toHaveLength(2);
    expect(page2.json().hasMore).toBe(false);
    const byName = await api(d.adminSession, "GET", `/contact-list-items?searchParam=maria&contactListId=${list.id}`);
    expect(byName.json().contacts.map((c: ContactListItemDTO) => c.id)).toEqual([maria.id]);
    const byNumber = await api(d.adminSession, "GET", `/contact-list-items?searchParam=987654321&contactListId=${list.id}`);
    expect(byNumber.json().contacts.map((c: ContactListItemDTO) => c.id)).toEqual([maria.id]);
    expect((await api(d.adminSession, "GET", `/contact-lists/${list.id}`)).json().contactsCount).toBe(22);

    const edited = await api(d.adminSession, "PUT", `/contact-list-items/${maria.id}`, { name: "Maria S.", number: "5511912345678", email: "" });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ name: "Maria S.", number: "5511912345678", email: "" });
    const clash = await api(d.adminSession, "PUT", `/contact-list-items/${maria.id}`, { number: "5511987650000" });
    expect(clash.statusCode).toBe(400);
    expect(clash.json().error).toBe("ERR_DUPLICATED_CONTACT_LIST_ITEM");
    expect((await api(d.adminSession, "GET", `/contact-list-items/${maria.id}`)).json()).toMatchObject({ name: "Maria S.", number: "5511912345678" });

    expect((await api(d.adminSession, "DELETE", `/contact-list-items/${maria.id}`)).statusCode).toBe(204);
    expect((await api(d.adminSession, "GET", `/contact-list-items/${maria.id}`)).statusCode).toBe(404);
    expect((await api(d.adminSession, "GET", `/contact-lists/${list.id}`)).json().contactsCount).toBe(21);
  });

  it("is for admins only, and another company's lists and items answer 404 like missing ones", async () => {
    const a = await buildTenant(t.app);
    const b = await buildTenant(t.app);
    const list = await newList(a.adminSession, "Lista da empresa A");
    const item = await newItem(a.adminSession, list.id, { name: "Cliente A", number: "5511987651111" });

    for (const [method, url, body] of [
      ["GET", "/contact-lists/?pageNumber=1"],
      ["GET", "/contact-lists/list"],
      ["POST", "/contact-lists", { name: "Minha lista" }],
      ["GET", `/contact-lists/${list.id}`],
      ["GET", `/contact-list-items?contactListId=${list.id}`],
      ["POST", "/contact-list-items", { name: "Cliente", number: "5511987652222", contactListId: list.id }],
      ["DELETE", `/contact-list-items/${item.id}`],
    ] as const) {
      const res = await api(a.userSession, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error).toBe("ERR_NO_PERMISSION");
    }

    for (const [method, url, body, code] of [
      ["GET", `/contact-lists/${list.id}`, undefined, "ERR_NO_CONTACT_LIST_FOUND"],
      ["PUT", `/contact-lists/${list.id}`, { name: "Roubada" }, "ERR_NO_CONTACT_LIST_FOUND"],
      ["DELETE", `/contact-lists/${list.id}`, undefined, "ERR_NO_CONTACT_LIST_FOUND"],
      ["POST", "/contact-list-items", { name: "Intruso", number: "5511987653333", contactListId: list.id }, "ERR_NO_CONTACT_LIST_FOUND"],
      ["GET", `/contact-list-items/${item.id}`, undefined, "ERR_NO_CONTACT_LIST_ITEM_FOUND"],
      ["PUT", `/contact-list-items/${item.id}`, { name: "Roubado" }, "ERR_NO_CONTACT_LIST_ITEM_FOUND"],
      ["DELETE", `/contact-list-items/${item.id}`, undefined, "ERR_NO_CONTACT_LIST_ITEM_FOUND"],
    ] as const) {
      const res = await api(b.adminSession, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error).toBe(code);
    }
    const form = await xlsx([
      ["Nome", "Número"],
      ["Intruso", "5511987654444"],
    ]);
    expect((await upload(b.adminSession, list.id, form)).statusCode).toBe(404);
    expect((await api(b.adminSession, "GET", "/contact-lists/?pageNumber=1")).json().records).toEqual([]);
    expect((await api(b.adminSession, "GET", `/contact-list-items?contactListId=${list.id}`)).json().contacts).toEqual([]);
    expect((await api(b.adminSession, "GET", "/contact-list-items")).json().contacts).toEqual([]);
    expect(await itemsOf(a.company.id, list.id)).toHaveLength(1);
    expect((await api(a.adminSession, "GET", `/contact-lists/${list.id}`)).json().name).toBe("Lista da empresa A");
  });
});

describe("spreadsheet upload", () => {
  it("imports an .xlsx in the request: headers found by name, duplicates skipped, bad rows with their line and reason", async () => {
    const d = await buildTenant(t.app);
    const list = await newList(d.adminSession);
    await newItem(d.adminSession, list.id, { name: "Já na lista", number: "5511987650010" });
    const file = await xlsx([
      ["Lista de clientes (maio)"],
      ["E-mail", "Nome completo", "Telefone"],
      ["ana@exemplo.com", "Ana Souza", "(11) 98765-0001"], // 3
      ["", "Bruno Lima", 5511987650002], // 4: a number cell
      ["", "Carla Dias", "5511987650001"], // 5: same number as row 3
      ["", "Daniel Reis", "5511987650010"], // 6: already in the list
      ["", "", "5511987650003"], // 7: no name → the number
      [null, null, null], // 8: blank, ignored
      ["", "Eva", ""], // 9: no number
      ["", "Fábio", "12345"], // 10: too short to be a number
      ["", "G", "5511987650004"], // 11
      ["", "H".repeat(51), "5511987650005"], // 12
      ["fabio@", "Fábio Rocha", "5511987650006"], // 13
      ["", "Gil Souza", "0000000000"], // 14: digits but no phone
    ]);
    const res = await upload(d.adminSession, list.id, file);
    expect(res.statusCode, res.body).toBe(201);
    const result = res.json() as ContactListImportDTO;
    expect(result).toMatchObject({ status: "done", totalRows: 11, processedRows: 11, inserted: 3, duplicates: 2, invalid: 6, error: null });
    expect(result.errors).toEqual([
      { line: 9, field: "number", reason: "number_missing", message: "Required", value: "" },
      { line: 10, field: "number", reason: "number_invalid", message: "Invalid number", value: "12345" },
      { line: 11, field: "name", reason: "name_too_short", message: "Too Short!", value: "G" },
      { line: 12, field: "name", reason: "name_too_long", message: "Too Long!", value: "H".repeat(51) },
      { line: 13, field: "email", reason: "email_invalid", message: "Invalid email", value: "fabio@" },
      { line: 14, field: "number", reason: "number_invalid", message: "Invalid number", value: "0000000000" },
    ]);
    const items = await itemsOf(d.company.id, list.id);
    expect(items.map((i) => [i.name, i.number, i.email]).sort()).toEqual([
      ["5511987650003", "5511987650003", ""],
      ["Ana Souza", "5511987650001", "ana@exemplo.com"],
      ["Bruno Lima", "5511987650002", ""],
      ["Já na lista", "5511987650010", ""],
    ]);
    expect((await api(d.adminSession, "GET", `/contact-lists/${list.id}/imports/${result.id}`)).json()).toMatchObject({
      status: "done",
      inserted: 3,
    });
  });

  it("imports a ';' CSV saved as Windows-1252 with English headers, and refuses files it cannot read", async () => {
    const d = await buildTenant(t.app);
    const list = await newList(d.adminSession);
    const latin1 = csv(
      "Name;Phone;Email\r\nJoão Conceição;5511987650101;joao@exemplo.com\r\n\r\nMárcia;5511987650102;\r\nZé;+55 11 98765-0103;ze@\r\n",
      "latin1",
    );
    const res = await upload(d.adminSession, list.id, latin1);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: "done", inserted: 2, invalid: 1, duplicates: 0 });
    expect(res.json().errors).toEqual([{ line: 5, field: "email", reason: "email_invalid", message: "Invalid email", value: "ze@" }]);
    expect((await itemsOf(d.company.id, list.id)).map((i) => i.name).sort()).toEqual(["João Conceição", "Márcia"]);

    const comma = await upload(d.adminSession, list.id, csv('nome,whatsapp\n"Souza, Ana",5511987650104\n'));
    expect(comma.json()).toMatchObject({ inserted: 1 });
    expect((await itemsOf(d.company.id, list.id)).map((i) => i.name)).toContain("Souza, Ana");

    const noNumber = await upload(d.adminSession, list.id, csv("nome;cidade\nAna;Recife\n"));
    expect(noNumber.statusCode).toBe(400);
    expect(noNumber.json().error).toBe("ERR_CONTACT_LIST_IMPORT_NO_NUMBER_COLUMN");
    const oldXls = await upload(d.adminSession, list.id, {
      name: "antiga.xls",
      type: "application/vnd.ms-excel",
      data: Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]),
    });
    expect(oldXls.statusCode).toBe(415);
    expect(oldXls.json().error).toBe("ERR_CONTACT_LIST_IMPORT_FILE_TYPE");
    const broken = await upload(d.adminSession, list.id, {
      name: "quebrada.xlsx",
      type: "application/octet-stream",
      data: Buffer.from("PK\x03\x04garbage"),
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error).toBe("ERR_CONTACT_LIST_IMPORT_UNREADABLE");
    const noFile = await t.app.inject({
      method: "POST",
      url: `/api/contact-lists/${list.id}/upload`,
      headers: d.adminSession.headers,
      payload: { file: "x" },
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().error).toBe("ERR_INVALID_UPLOAD");
  });

  it("imports a large file through the job runner with progress events, and then checks the numbers on WhatsApp", async () => {
    const d = await buildTenant(t.app);
    const socket = await connectSocket(t.app, d.adminSession.token);
    const attendant = await connectSocket(t.app, d.userSession.token);
    const leaked = collectEvents(attendant, "ContactList");
    try {
      const list = await newList(d.adminSession, "Lista grande");
      const rows = Array.from({ length: 3000 }, (_, i) => `Cliente número ${i};55119${String(10_000_000 + i)};cliente${i}@exemplo.com`);
      rows[10] = "Sem número;;";
      rows[20] = rows[19]!.replace("Cliente número 19", "Repetido");
      const file = csv(`nome;número;email\n${rows.join("\n")}\n`);
      expect(file.data.length).toBeGreaterThan(INLINE_IMPORT_MAX_BYTES);
      const finished = nextEventWhere<ContactListEvent>(socket, "ContactList", (e) => e.action === "import" && e.import.status === "done", 20_000);
      const res = await upload(d.adminSession, list.id, file);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json()).toMatchObject({ status: "queued", contactListId: list.id, inserted: 0 });
      const again = await upload(d.adminSession, list.id, csv("nome;numero\nAna;5511987650001\n"));
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toBe("ERR_CONTACT_LIST_IMPORT_RUNNING");

      const done = (await finished) as Extract<ContactListEvent, { action: "import" }>;
      expect(done.import).toMatchObject({
        id: res.json().id,
        status: "done",
        totalRows: 3000,
        processedRows: 3000,
        inserted: 2998,
        duplicates: 1,
        invalid: 1,
      });
      expect(done.import.errors).toEqual([{ line: 12, field: "number", reason: "number_missing", message: "Required", value: "" }]);
      expect(done.record).toMatchObject({ id: list.id, contactsCount: 2998 });
      const shown = await api(d.adminSession, "GET", `/contact-lists/${list.id}/imports/${res.json().id}`);
      expect(shown.json()).toMatchObject({ status: "done", inserted: 2998 });
      const [stored] = await t.ctx.database.db
        .select({ data: contactListImports.data })
        .from(contactListImports)
        .where(and(eq(contactListImports.companyId, d.company.id), eq(contactListImports.id, res.json().id)));
      expect(stored!.data).toBeNull();
      expect(leaked).toEqual([]);
    } finally {
      socket.disconnect();
      attendant.disconnect();
    }
  });

  it("a retried import resumes after the batches already written and counts nothing twice", async () => {
    const d = await buildTenant(t.app);
    const list = await newList(d.adminSession);
    const rows = Array.from({ length: 2500 }, (_, i) => `Cliente ${i};55119${String(20_000_000 + i)}`);
    const service = contactListsService(t.ctx);
    const created = await service.importer.create(
      d.company.id,
      { contactListId: list.id, userId: d.admin.id, fileName: "x.csv", format: "csv", data: Buffer.from(`nome;numero\n${rows.join("\n")}`) },
      false,
    );
    // As if a first run wrote the first batch (rows 1–1000) and died.
    await t.ctx.database.db
      .update(contactListImports)
      .set({ status: "running", processedRows: 1000, inserted: 1000, totalRows: 2500 })
      .where(and(eq(contactListImports.companyId, d.company.id), eq(contactListImports.id, created.id)));
    const done = await service.importer.run(d.company.id, created.id);
    expect(done).toMatchObject({ status: "done", processedRows: 2500, inserted: 2500, duplicates: 0 });
    const items = await itemsOf(d.company.id, list.id);
    expect(items).toHaveLength(1500);
    expect(items.some((i) => i.name === "Cliente 999")).toBe(false);
    expect(items.some((i) => i.name === "Cliente 1000")).toBe(true);
    // Done imports are not run again.
    expect(await service.importer.run(d.company.id, created.id)).toBeUndefined();
  });

  it("serves a sample spreadsheet (.xlsx and .csv) that imports as it is", async () => {
    const d = await buildTenant(t.app);
    const res = await api(d.adminSession, "GET", "/contact-lists/sample");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("spreadsheetml");
    expect(res.headers["content-disposition"]).toContain(".xlsx");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]!.getRow(1).values).toEqual([undefined, "Nome", "Número", "Email"]);
    const list = await newList(d.adminSession);
    const imported = await upload(d.adminSession, list.id, { name: "modelo.xlsx", type: "application/octet-stream", data: res.rawPayload });
    expect(imported.json()).toMatchObject({ inserted: 2, invalid: 0 });

    const asCsv = await api(d.adminSession, "GET", "/contact-lists/sample?format=csv");
    expect(asCsv.headers["content-type"]).toContain("text/csv");
    expect(asCsv.body).toContain("Nome;Número;Email");
    const other = await newList(d.adminSession);
    expect((await upload(d.adminSession, other.id, { name: "modelo.csv", type: "text/csv", data: asCsv.rawPayload })).json()).toMatchObject({
      inserted: 2,
    });
    expect((await api(d.userSession, "GET", "/contact-lists/sample")).statusCode).toBe(403);
  });
});

describe("WhatsApp validity and socket events", () => {
  it("checks new items through the default connection and tells the admins (also per list); no one else hears", async () => {
    const d = await buildTenant(t.app);
    const other = await buildTenant(t.app);
    const created = (await api(d.adminSession, "POST", "/whatsapp", { name: "Simulador", isDefault: true })).json();
    const scanned = await api(d.adminSession, "POST", `/simulator/${created.id}/scan`, { code: created.qrcode });
    expect(scanned.statusCode, scanned.body).toBe(200);

    const admin = await connectSocket(t.app, d.adminSession.token);
    const attendant = await connectSocket(t.app, d.userSession.token);
    const stranger = await connectSocket(t.app, other.adminSession.token);
    const heard = [...["ContactList", "ContactListItem"].flatMap((e) => [collectEvents(attendant, e), collectEvents(stranger, e)])];
    try {
      const listCreated = nextEventWhere<ContactListEvent>(admin, "ContactList", (e) => e.action === "create");
      const list = await newList(d.adminSession, "Lista com checagem");
      expect(await listCreated).toEqual({ action: "create", record: list });
      const perList = collectEvents<ContactListItemEvent>(admin, `ContactListItem-${list.id}`);

      const itemCreated = nextEventWhere<ContactListItemEvent>(admin, "ContactListItem", (e) => e.action === "create");
      const counted = nextEventWhere<ContactListEvent>(admin, "ContactList", (e) => e.action === "update" && e.record.contactsCount === 1);
      const checked = nextEventWhere<ContactListItemEvent>(admin, "ContactListItem", (e) => e.action === "update", 15_000);
      const valid = await newItem(d.adminSession, list.id, { name: "Tem WhatsApp", number: "5511987654321" });
      expect(await itemCreated).toEqual({ action: "create", record: valid });
      await counted;
      expect(await checked).toMatchObject({ action: "update", record: { id: valid.id, isWhatsappValid: true } });

      const invalid = await newItem(d.adminSession, list.id, { name: "Sem WhatsApp", number: "5511912340000" });
      await poll(async () => (await api(d.adminSession, "GET", `/contact-list-items/${invalid.id}`)).json().isWhatsappValid).toBe(false);

      // A new number is checked again.
      const edited = await api(d.adminSession, "PUT", `/contact-list-items/${invalid.id}`, { number: "5511912341111" });
      expect(edited.json().isWhatsappValid).toBeNull();
      await poll(async () => (await api(d.adminSession, "GET", `/contact-list-items/${invalid.id}`)).json().isWhatsappValid).toBe(true);

      const deleted = nextEventWhere<ContactListItemEvent>(admin, "ContactListItem", (e) => e.action === "delete");
      await api(d.adminSession, "DELETE", `/contact-list-items/${valid.id}`);
      expect(await deleted).toEqual({ action: "delete", id: valid.id, contactListId: list.id });
      const listDeleted = nextEventWhere<ContactListEvent>(admin, "ContactList", (e) => e.action === "delete");
      await api(d.adminSession, "DELETE", `/contact-lists/${list.id}`);
      expect(await listDeleted).toEqual({ action: "delete", id: list.id });

      expect(perList.map((e) => e.action)).toEqual(expect.arrayContaining(["create", "update", "delete"]));
      await t.ctx.events.drain();
      expect(heard.flat()).toEqual([]);
    } finally {
      admin.disconnect();
      attendant.disconnect();
      stranger.disconnect();
    }
  });

  it("checks imported items in the background", async () => {
    const d = await buildTenant(t.app);
    const created = (await api(d.adminSession, "POST", "/whatsapp", { name: "Simulador", isDefault: true })).json();
    expect((await api(d.adminSession, "POST", `/simulator/${created.id}/scan`, { code: created.qrcode })).statusCode).toBe(200);
    const list = await newList(d.adminSession);
    const res = await upload(d.adminSession, list.id, csv("nome;numero\nAna;5511987650001\nBia;5511987650000\n"));
    expect(res.json()).toMatchObject({ inserted: 2 });
    await poll(async () => (await itemsOf(d.company.id, list.id)).map((i) => [i.name, i.isWhatsappValid]).sort()).toEqual([
      ["Ana", true],
      ["Bia", false],
    ]);
  });

  it("leaves items unchecked when the company has no connected connection", async () => {
    const d = await buildTenant(t.app);
    const list = await newList(d.adminSession);
    const item = await newItem(d.adminSession, list.id, { number: "5511987654321" });
    expect(await contactListsService(t.ctx).checker.run(d.company.id, list.id)).toBe(0);
    expect((await api(d.adminSession, "GET", `/contact-list-items/${item.id}`)).json().isWhatsappValid).toBeNull();
  });
});
