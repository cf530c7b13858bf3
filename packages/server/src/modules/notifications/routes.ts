import { notificationListQuery, smtpSettingsBody } from "@balcao/shared";
import type { App } from "../../app";
import { actorOf } from "../../http/auth";
import { listNotifications, markNotificationsRead } from "./service";
import { getSmtpSettings, saveSmtpSettings, sendTestMail } from "./smtp";

/** The admins' bell (connection alerts) and the company's SMTP setting for alert e-mails (issue 21). */
export function registerNotificationRoutes(app: App): void {
  const db = app.ctx.database.db;
  const auth = { preHandler: app.authenticate };

  app.get("/notifications", { ...auth, schema: { querystring: notificationListQuery, tags: ["notifications"] } }, (request) =>
    listNotifications(db, actorOf(request), request.query.pageNumber),
  );
  app.put("/notifications/read", { ...auth, schema: { tags: ["notifications"] } }, (request) => markNotificationsRead(db, actorOf(request)));

  const tags = ["settings"];
  app.get("/settings/smtp", { ...auth, schema: { tags } }, (request) => getSmtpSettings(app.ctx, actorOf(request)));
  app.put("/settings/smtp", { ...auth, schema: { body: smtpSettingsBody, tags } }, (request) =>
    saveSmtpSettings(app.ctx, actorOf(request), request.body),
  );
  app.post("/settings/smtp/test", { ...auth, schema: { tags } }, (request) => sendTestMail(app.ctx, actorOf(request)));
}
