import { z } from 'zod'

/**
 * One named error: its name, the zod schema of its data (always with a `message` for people), and the
 * schema of the whole `{ name, data }` value as it crosses IPC, the WebSocket or the session database.
 */
export interface ErrorDef<N extends string, D extends z.ZodType = z.ZodType> {
  readonly name: N
  readonly data: D
  readonly schema: z.ZodObject<{ name: z.ZodLiteral<N>; data: D }>
}

/** Declares an error whose data has exactly these fields besides `message` (unknown fields are dropped on parse). */
export function defineError<N extends string, S extends z.ZodRawShape>(name: N, shape: S) {
  return withSchema(name, () => z.object({ message: z.string() }).extend(shape))
}

/**
 * Declares an error whose data may carry further fields besides those named (kept on parse): for
 * failures whose details are the thrower's to choose, such as a tool's explanation to the model.
 */
export function defineOpenError<N extends string, S extends z.ZodRawShape>(name: N, shape: S) {
  return withSchema(name, () => z.looseObject({ message: z.string() }).extend(shape))
}

/**
 * The schemas are built on first use: a process declares about a hundred errors as its modules load and
 * parses few of them, and building them all cost every start several milliseconds of zod.
 */
function withSchema<N extends string, D extends z.ZodType>(name: N, makeData: () => D): ErrorDef<N, D> {
  let data: D | undefined
  let schema: z.ZodObject<{ name: z.ZodLiteral<N>; data: D }> | undefined
  return {
    name,
    get data() {
      data ??= makeData()
      return data
    },
    get schema() {
      schema ??= z.object({ name: z.literal(name), data: this.data })
      return schema
    },
  }
}
