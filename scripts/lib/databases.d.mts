export declare const localPostgresUrl: string
export declare const localRedisUrl: string

export interface PostgresDatabase {
  readonly name: string
  readonly url: string
  /** Runs one statement as the user of the admin URL, on its own connection. */
  admin: (text: string) => Promise<Record<string, unknown>[]>
  drop: () => Promise<void>
}
export declare function createPostgresDatabase(adminUrl: string, prefix: string): Promise<PostgresDatabase>

export interface RedisNamespace {
  readonly url: string
  readonly prefix: string
  countKeys: () => Promise<number>
  drop: () => Promise<void>
}
export declare function createRedisNamespace(redisUrl: string, prefixBase: string): Promise<RedisNamespace>

export declare function postgresProblem(url: string, timeoutMs?: number): Promise<string | undefined>
export declare function redisProblem(url: string, timeoutMs?: number): Promise<string | undefined>
