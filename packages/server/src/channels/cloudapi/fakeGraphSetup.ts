/**
 * The one test setup for the Cloud API against the local fake Graph API (fakeGraph.ts), shared by
 * provider.test.ts, cloudapi.http.test.ts and the provider contract suite (cloudapi.contract.test.ts): start the
 * fake with its accounts and templates, point the app or a provider at it, route its webhooks into the app, and
 * create a connection through the API with the fake's account behind it. No test-runner imports: any harness
 * (vitest, Playwright) can use it.
 */
import pino from "pino";
import type { ConnectionDTO } from "@balcao/shared";
import type { App } from "../../app";
import { FakeGraph, type FakeGraphAccount, type FakeTemplate, type WebhookDelivery } from "./fakeGraph";
import { CloudApiProvider, type CloudApiAccount, type CloudApiProviderOptions } from "./provider";

/** An account's settings as the connection modal takes them, plus the number the fake reports for it. */
export type FakeGraphTestAccount = CloudApiAccount & { displayPhoneNumber: string };

export interface StartFakeGraphOptions {
  accounts?: FakeGraphAccount[];
  templates?: FakeTemplate[];
  /** A fixed port (e2e: the server under test is started pointing at it); any free one otherwise. */
  port?: number;
  /** How the fake POSTs webhooks (default: fetch to each account's webhookUrl). */
  deliver?: WebhookDelivery;
}

/** A started fake Graph API holding these accounts and templates. */
export async function startFakeGraph(options: StartFakeGraphOptions = {}): Promise<FakeGraph> {
  const fake = await new FakeGraph().start(options.port);
  for (const account of options.accounts ?? []) fake.addAccount(account);
  if (options.templates) fake.templates = options.templates;
  if (options.deliver) fake.deliver = options.deliver;
  return fake;
}

/** createTestApp / server environment pointing the Cloud API provider at the fake. */
export const fakeGraphEnv = (fake: FakeGraph): Record<string, string> => ({ CLOUD_API_BASE_URL: fake.baseUrl, CLOUD_API_VERSION: fake.version });

/** Webhooks go straight into the app, byte for byte (the account's webhookUrl is the app's path). */
export const deliverInto =
  (app: App): WebhookDelivery =>
  async (url, body, headers) => {
    const res = await app.inject({ method: "POST", url, payload: body, headers });
    return { status: res.statusCode, body: res.body };
  };

/** A Cloud API provider talking to the fake (no ffmpeg: voice notes use the built-in converter). */
export function fakeGraphProvider(fake: FakeGraph, loadAccount: CloudApiProviderOptions["loadAccount"]): CloudApiProvider {
  return new CloudApiProvider({
    baseUrl: fake.baseUrl,
    version: fake.version,
    logger: pino({ level: "silent" }),
    ffmpegPath: "/nonexistent/ffmpeg",
    loadAccount,
  });
}

/**
 * Creates a cloud-api connection through the API (as `headers`' admin) and puts its account on the fake with the
 * connection's webhook path; then saves the token again so the connection's session restarts and passes the token
 * check against the fake (it did not know the account when the connection was created).
 */
export async function connectCloudApi(
  app: App,
  fake: FakeGraph,
  headers: Record<string, string>,
  account: FakeGraphTestAccount,
  name: string,
): Promise<ConnectionDTO> {
  const { displayPhoneNumber, ...cloudApi } = account;
  const created = await app.inject({ method: "POST", url: "/api/whatsapp", headers, payload: { name, channel: "cloud-api", cloudApi } });
  if (created.statusCode !== 201) throw new Error(`creating the cloud-api connection failed: ${created.statusCode} ${created.body}`);
  const connection = created.json() as ConnectionDTO;
  fake.addAccount({ ...account, displayPhoneNumber, webhookUrl: `/api/cloudapi/${connection.id}/webhook` });
  const saved = await app.inject({
    method: "PUT",
    url: `/api/whatsapp/${connection.id}`,
    headers,
    payload: { cloudApi: { accessToken: account.accessToken } },
  });
  if (saved.statusCode !== 200) throw new Error(`saving the cloud-api token failed: ${saved.statusCode} ${saved.body}`);
  return connection;
}
