# Candidate Lookup: the built app and its production dependencies, run as an unprivileged user.
# Build:  docker build -t candidate-lookup .
# Run:    docker run --read-only -v cl-audit:/data -p 8080:8080 --env-file .env candidate-lookup
# See docs/deploying.md for the variables, health checks, metrics and the audit log.

ARG NODE_IMAGE=node:20-bookworm-slim

# 1. Build the SPA and the server bundle (needs the dev dependencies: Vite, Tailwind, React plugin).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY index.html vite.config.ts tsconfig.json ./
COPY public ./public
COPY src ./src
RUN npm run build

# 2. Production dependencies only: what dist/server imports at run time.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# 3. The image: no compiler, no dev dependencies, no npm at run time. Nothing is written outside /data,
# so the root filesystem may be read-only (docker run --read-only, compose read_only: true).
FROM ${NODE_IMAGE} AS runtime
# JSON log lines even under `docker run -t`, where stdout is a terminal: a container's log goes to a collector.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    AUDIT_LOG=/data/audit.jsonl \
    LOG_FORMAT=json
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# The audit log lives on a volume owned by the unprivileged user (uid 1000, "node" in the Node images).
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8080 9464
# Slim images have no curl: Node's own fetch asks /healthz (the process is up).
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM reaches node directly (exec form): in-flight lookups finish, then it exits.
CMD ["node", "dist/server/main.js"]
