/**
 * How the web app and the API's answers travel (issue 20):
 * - dist/assets holds content-hashed files: a new build gives them new names, so browsers keep them for a
 *   year without asking again (immutable); the build writes a .br and a .gz beside each text file
 *   (packages/web/vite.config.ts) and the brotli or gzip one is sent to a browser that accepts it.
 * - index.html (and the SPA fallback that serves it) is always revalidated: it names the current assets.
 * - JSON answers of the API at or above COMPRESS_THRESHOLD_BYTES are compressed on the fly (brotli or gzip,
 *   as the client accepts). Types mime-db calls compressible (text/csv exports…) are too; media, files
 *   already compressed, partial content (206) and answers that carry a Content-Encoding are left alone.
 *   Socket.IO does not go through Fastify's reply, so its traffic is untouched.
 */
import compress from "@fastify/compress";
import type { FastifyStaticOptions } from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";

export const IMMUTABLE = "public, max-age=31536000, immutable";
export const REVALIDATE = "no-cache";
/** Below this many bytes compression saves less than it costs (a TCP packet holds ~1.4 KB). */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/** Compressed API answers; register before the routes (the plugin hooks every route added after it). */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ["br", "gzip"],
    customTypes: /^application\/(?:[\w.+-]+\+)?json\b/,
  });
}

/** @fastify/static options of the built web app in `root` (dist). */
export function webAppStaticOptions(root: string): FastifyStaticOptions {
  return {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply: FastifyReply, filePath: string) => {
      reply.header("Cache-Control", /[\\/]assets[\\/][^\\/]+$/.test(filePath) ? IMMUTABLE : REVALIDATE);
    },
  };
}
