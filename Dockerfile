# brainql: a read-only GraphQL API over Antigravity brain directories.
#
#   docker build -t brainql .                                  (Docker)
#   podman build --pull=never --format docker -t brainql .     (podman; docker format keeps HEALTHCHECK)
#
# The runtime image holds production dependencies, the compiled server and the example brain
# home, all owned by root and read-only to the `node` user (uid 1000) the server runs as. It
# writes only its index under /var/cache/brainql (a volume owned by `node`) and /tmp, so it runs
# with a read-only root file system.

# better-sqlite3 is a native addon: it is compiled in the full image (python3, make, g++) and
# the slim runtime image gets the compiled node_modules.
ARG NODE_BUILD_IMAGE=node:24-bookworm
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_BUILD_IMAGE} AS build
# Node's own headers (the official images ship them in /usr/local/include/node): node-gyp then
# downloads none, so the build also works where only the npm registry is reachable.
ENV npm_config_nodedir=/usr/local
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
# The context is an allow-list (see .dockerignore): tsconfig*.json, src/, console/ (the web console,
# built by `npm run build` into dist/console with its devDependencies) and example-home/.
COPY . .
# mkdir: a checkout without example-home/ still builds (the server then has no fallback home).
RUN npm run build && test -x dist/cli/main.js && mkdir -p example-home
# Production dependencies only; of better-sqlite3's build, only the addon (not its C sources
# and objects). Loading it here fails the build rather than the server's start.
RUN npm prune --omit=dev --no-audit --no-fund \
  && addon=node_modules/better-sqlite3 \
  && mv "$addon/build/Release/better_sqlite3.node" /tmp/ \
  && rm -rf "$addon/build" "$addon/deps" "$addon/src" \
  && mkdir -p "$addon/build/Release" && mv /tmp/better_sqlite3.node "$addon/build/Release/" \
  && node -e "require('better-sqlite3')(':memory:').close()"

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/example-home ./example-home
# The command line on the PATH: `docker compose exec brainql brainql list`.
RUN ln -s /app/dist/cli/main.js /usr/local/bin/brainql
# The index's folder: the only one the server writes, kept on a volume across containers.
# Pushed sessions (brainql push) live in INGEST_DIR, the only other folder it writes.
RUN mkdir -p /var/cache/brainql /var/lib/brainql/ingest \
  && chown node:node /var/cache/brainql /var/lib/brainql/ingest \
  && chmod 0700 /var/cache/brainql /var/lib/brainql/ingest
ENV HOST=0.0.0.0 \
    PORT=3000 \
    GEMINI_HOME=/data/gemini \
    CACHE_DIR=/var/cache/brainql \
    INGEST_DIR=/var/lib/brainql/ingest
VOLUME /var/cache/brainql
VOLUME /var/lib/brainql/ingest
USER node
EXPOSE 3000
# Slim images have no curl: node's own fetch asks /healthz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))"]
# node itself, not `npm start`: npm would write logs under $HOME and run the build again.
CMD ["node", "--max-semi-space-size=8", "dist/main.js"]
