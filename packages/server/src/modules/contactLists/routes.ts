import { open } from "node:fs/promises";
import path from "node:path";
import {
  contactListBody,
  contactListImportParams,
  contactListItemCreateBody,
  contactListItemsQuery,
  contactListItemUpdateBody,
  contactListSampleQuery,
  contactListsQuery,
  contactListsSimpleQuery,
  idParams,
} from "@balcao/shared";
import { z } from "zod";
import type { App } from "../../app";
import type { AppContext } from "../../context";
import { actorOf } from "../../http/auth";
import { AppError } from "../../http/errors";
import { receiveMultipart, type MultipartForm } from "../../http/uploads";
import { sampleCsv, sampleXlsx, SAMPLE_FILE_NAME } from "./sample";
import { ContactListsService } from "./service";
import { sniffFormat } from "./spreadsheet";
import { perContext } from "../../perContext";

/** One service per app (the routes and the start hook share its job handlers). */
export const contactListsService = perContext((ctx) => new ContactListsService(ctx));

/** A spreadsheet of 50,000 contacts is 1.5–3 MB; the file is kept in the database until imported. */
const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

export function registerContactListRoutes(app: App): void {
  const lists = contactListsService(app.ctx);
  const auth = { preHandler: app.authenticate };
  const tags = ["contact-lists"];

  app.get("/contact-lists", { ...auth, schema: { querystring: contactListsQuery, tags } }, (request) => lists.list(actorOf(request), request.query));
  app.get("/contact-lists/list", { ...auth, schema: { querystring: contactListsSimpleQuery, tags } }, (request) => lists.listAll(actorOf(request)));
  app.get("/contact-lists/sample", { ...auth, schema: { querystring: contactListSampleQuery, tags } }, async (request, reply) => {
    lists.assertAllowed(actorOf(request));
    const csv = request.query.format === "csv";
    return reply
      .header("Content-Type", csv ? "text/csv; charset=utf-8" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
      .header("Content-Disposition", `attachment; filename="${SAMPLE_FILE_NAME}.${csv ? "csv" : "xlsx"}"`)
      .send(csv ? sampleCsv() : await sampleXlsx());
  });
  app.get("/contact-lists/:id", { ...auth, schema: { params: idParams, tags } }, (request) => lists.show(actorOf(request), request.params.id));
  app.post("/contact-lists", { ...auth, schema: { body: contactListBody, tags } }, async (request, reply) =>
    reply.status(201).send(await lists.create(actorOf(request), request.body)),
  );
  app.put("/contact-lists/:id", { ...auth, schema: { params: idParams, body: contactListBody, tags } }, (request) =>
    lists.update(actorOf(request), request.params.id, request.body),
  );
  app.delete("/contact-lists/:id", { ...auth, schema: { params: idParams, tags } }, async (request, reply) => {
    await lists.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });

  /**
   * POST /contact-lists/:id/upload, multipart with one file (field `file`): streamed to DATA_DIR/tmp/uploads
   * within UPLOAD_MAX_MB, its format sniffed from its bytes, then imported (see ContactListsService.upload).
   */
  const importBytes = Math.min(app.ctx.config.uploads.fileBytes, IMPORT_MAX_BYTES);
  const importForm: MultipartForm = {
    description: "One spreadsheet (.xlsx, .xls or .csv; the format is read from its bytes) of name, number, email columns.",
    fields: z.object({}),
    file: { name: "file", description: "The spreadsheet (any file field name is taken)", required: true },
    limits: { fileBytes: importBytes, totalBytes: importBytes, files: 1, fields: 10, fieldBytes: 1000 },
  };
  app.post(
    "/contact-lists/:id/upload",
    { ...auth, config: { multipart: importForm }, schema: { params: idParams, tags } },
    async (request, reply) => {
      const actor = actorOf(request);
      await lists.show(actor, request.params.id);
      if (!request.isMultipart()) throw new AppError("ERR_INVALID_UPLOAD", 400);
      const { files, cleanup } = await receiveMultipart(request, path.join(app.ctx.config.dataDir, "tmp", "uploads"));
      try {
        const file = files[0];
        if (!file) throw new AppError("ERR_INVALID_UPLOAD", 400);
        const handle = await open(file.path);
        let data: Buffer;
        try {
          data = await handle.readFile();
        } finally {
          await handle.close();
        }
        const format = sniffFormat(data);
        const { status, body } = await lists.upload(actor, request.params.id, { fileName: file.fileName.slice(0, 255), format, data });
        return reply.status(status).send(body);
      } finally {
        await cleanup();
      }
    },
  );
  app.get("/contact-lists/:id/imports/:importId", { ...auth, schema: { params: contactListImportParams, tags } }, (request) =>
    lists.showImport(actorOf(request), request.params.id, request.params.importId),
  );

  app.get("/contact-list-items", { ...auth, schema: { querystring: contactListItemsQuery, tags } }, (request) =>
    lists.items(actorOf(request), request.query),
  );
  app.get("/contact-list-items/:id", { ...auth, schema: { params: idParams, tags } }, (request) =>
    lists.showItem(actorOf(request), request.params.id),
  );
  app.post("/contact-list-items", { ...auth, schema: { body: contactListItemCreateBody, tags } }, async (request, reply) =>
    reply.status(201).send(await lists.createItem(actorOf(request), request.body)),
  );
  app.put("/contact-list-items/:id", { ...auth, schema: { params: idParams, body: contactListItemUpdateBody, tags } }, (request) =>
    lists.updateItem(actorOf(request), request.params.id, request.body),
  );
  app.delete("/contact-list-items/:id", { ...auth, schema: { params: idParams, tags } }, async (request, reply) => {
    await lists.removeItem(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
}

/** Start hook: the import and WhatsApp-check jobs. */
export function startContactLists(ctx: AppContext): void {
  const service = contactListsService(ctx);
  service.importer.register();
  service.checker.register();
}
