CREATE TABLE "admin_milestone" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"first_admin_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- A database that has, or had, an administrator (a role granted in the audit log) before this
-- migration keeps that fact: the first-verifier grant must not fire on it again.
INSERT INTO "admin_milestone" ("id", "first_admin_at")
SELECT 1, coalesce((SELECT min("at") FROM "audit_log" WHERE "action" = 'role.grant'), now())
WHERE EXISTS (SELECT 1 FROM "user" WHERE "role" = 'admin')
   OR EXISTS (SELECT 1 FROM "audit_log" WHERE "action" = 'role.grant');
