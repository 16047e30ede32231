# The production image (docs/operations.md, "Container"): built with the development dependencies,
# run with the production ones only, on the Node of .node-version (tests/unit/node-version.test.ts).
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build

FROM node:24.21.0-bookworm-slim
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
RUN npm ci --omit=dev
COPY --from=build /app/dist dist
COPY --from=build /app/drizzle drizzle
ENV NODE_ENV=production
USER node
EXPOSE 3000
CMD ["node", "dist/server/main.js"]
