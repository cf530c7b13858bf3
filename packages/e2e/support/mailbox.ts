import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** One e-mail as the SMTP receiver got it: envelope, the login used, and the decoded subject and plain text. */
export interface ReceivedMail {
  to: string[];
  user: string | undefined;
  subject: string;
  text: string;
}

/** A real SMTP receiver on 127.0.0.1 (the company's mail server in a scenario), on a port the system picks. */
export interface Mailbox {
  port: number;
  received: ReceivedMail[];
  close: () => Promise<void>;
}

const utf8 = (bytes: number[]) => Buffer.from(bytes).toString("utf8");

/** The bytes of quoted-printable text (`underscores`: in an encoded word "_" is a space). */
function quotedPrintable(text: string, underscores: boolean): string {
  const bytes: number[] = [];
  const source = text.replace(/=\r?\n/g, "");
  for (let i = 0; i < source.length; i++) {
    const hex = source[i] === "=" ? source.slice(i + 1, i + 3) : "";
    if (/^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(underscores && source[i] === "_" ? " " : source[i]!, "utf8"));
  }
  return utf8(bytes);
}

/** A header's RFC 2047 words (=?UTF-8?B?…?= / =?UTF-8?Q?…?=, adjacent ones joined) as text. */
function headerText(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, "$1$2")
    .replace(/=\?[^?]+\?([BQ])\?([^?]*)\?=/gi, (_word, kind: string, data: string) =>
      kind.toUpperCase() === "B" ? Buffer.from(data, "base64").toString("utf8") : quotedPrintable(data, true),
    );
}

/** Subject and body of a single-part text message as nodemailer writes it (7bit, quoted-printable or base64). */
function readMessage(raw: string): { subject: string; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const headers = new Map(
    head.split(/\r?\n/).map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()] as const),
  );
  const encoding = (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  const text =
    encoding === "base64"
      ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
      : encoding === "quoted-printable"
        ? quotedPrintable(body, false)
        : body;
  return { subject: headerText(headers.get("subject") ?? ""), text: text.replace(/\r\n/g, "\n") };
}

/**
 * Starts the receiver. It offers no STARTTLS (plain SMTP, as a local relay would) and accepts only the login
 * `user`/`password`, so a scenario proves the server used the password the admin saved.
 */
export async function startMailbox(login: { user: string; password: string }): Promise<Mailbox> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth: (auth, _session, done) =>
      auth.username === login.user && auth.password === login.password ? done(null, { user: auth.username }) : done(new Error("Invalid login")),
    onData: (stream, session, done) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          ...readMessage(Buffer.concat(chunks).toString("utf8")),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
