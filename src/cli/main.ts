// `npm run cli -- admin grant <email> | admin revoke <email> | admin list`
import type { Role } from '@/shared/roles'
import { listAdmins, setRoleByEmail } from '@/server/auth/roles'
import { ConfigError, loadConfig } from '@/server/config'
import { openDatabase } from '@/server/db/client'
import { FolderInUseError } from '@/server/db/folder-lock'
import { createLogger } from '@/server/logger'
import { ApiError } from '@/server/http/errors'
import { packageInfo, refuseOldNode } from '@/server/package-info'

const usage = `Usage:
  npm run cli -- admin grant <email>    make an account an administrator
  npm run cli -- admin revoke <email>   make an administrator an ordinary user
  npm run cli -- admin list             list the administrators`

/**
 * Text from the database (or the command line) as the terminal may show it: control characters
 * (an ANSI escape could rewrite the screen), direction marks and the tab the columns use are
 * written as `\u{…}` escapes. Names saved before the app refused such characters may hold them.
 */
function printable(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}]/gu, (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`)
}

async function main(args: string[]): Promise<number> {
  const [area, command, email] = args
  if (area !== 'admin' || !['grant', 'revoke', 'list'].includes(command ?? '')) {
    console.error(usage)
    return 2
  }
  if (command !== 'list' && !email) {
    console.error(`An email is needed.\n${usage}`)
    return 2
  }
  const config = loadConfig(process.env, packageInfo.version)
  const logger = createLogger({ level: 'warn', pretty: false })
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger })
  try {
    await database.migrate()
    if (command === 'list') {
      const admins = await listAdmins(database.db)
      if (admins.length === 0) console.log('No administrators yet.')
      for (const admin of admins) {
        console.log(`${printable(admin.email)}\t${printable(admin.name)}${admin.emailVerified ? '' : '\t(email not verified)'}`)
      }
      return 0
    }
    const role: Role = command === 'grant' ? 'admin' : 'user'
    if (!(await setRoleByEmail(database.db, email ?? '', role))) {
      console.error(`No account with the email ${email}.`)
      return 1
    }
    const who = printable(email ?? '')
    console.log(command === 'grant' ? `${who} is now an administrator.` : `${who} is no longer an administrator.`)
    return 0
  } finally {
    await database.close()
  }
}

refuseOldNode()
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // A bad variable, or the embedded database open in another process: the message says it all.
    // A refused change (the last administrator keeps the role) says why, as the API would.
    console.error(
      error instanceof ConfigError || error instanceof FolderInUseError || error instanceof ApiError ? error.message : error,
    )
    process.exit(1)
  },
)
