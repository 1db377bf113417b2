# brainql: a read-only GraphQL API over Antigravity brain directories.
#
#   docker build -t brainql .                                  (Docker)
#   podman build --pull=never --format docker -t brainql .     (podman; docker format keeps HEALTHCHECK)
#
# The runtime image holds production dependencies, the compiled server and the example brain
# home, all owned by root and read-only to the `node` user (uid 1000) the server runs as. It
# writes nothing outside /tmp, so it runs with a read-only root file system.

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
# The context is an allow-list (see .dockerignore): tsconfig*.json, src/ and example-home/.
COPY . .
# mkdir: a checkout without example-home/ still builds (the server then has no fallback home).
RUN npm run build && test -f dist/main.js && mkdir -p example-home

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: no production dependency needs one (drop it if a native addon arrives).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && rm -rf /root/.npm
COPY --from=build /app/dist ./dist
COPY --from=build /app/example-home ./example-home
ENV HOST=0.0.0.0 \
    PORT=3000 \
    GEMINI_HOME=/data/gemini
USER node
EXPOSE 3000
# Slim images have no curl: node's own fetch asks /healthz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))"]
# node itself, not `npm start`: npm would write logs under $HOME and run the build again.
CMD ["node", "dist/main.js"]
