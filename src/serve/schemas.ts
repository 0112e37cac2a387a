// Request validation of `sjd serve`: every API request's body or query string is parsed by a zod
// schema before its handler runs, through fastify's validator compiler; the first problem becomes a
// one-line 400 ("nfe: Too big: expected number to be <=1024", "puzzle: puzzle has 80 characters,
// expected 81"). A JSON body's numbers must be JSON numbers ("nfe": "32" or "0x10" is refused,
// naming the field); a query string carries them as text, read only in decimal notation ("32",
// "0.7", "1e-3"; not "0x10" or "Infinity"). The limits are the server's own (api-constants.ts).
import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';
import { samplerName } from '../sampling/index.js';
import { CELLS, findRepeat, parseBoard, UNIT_NAMES } from '../tasks/sudoku/puzzle/board.js';
import { DIFFICULTY_CLASSES } from '../tasks/sudoku/puzzle/difficulty.js';
import { GRIDS, LIMITS } from './api-constants.js';

/** Where a request's fields come from: a JSON body, or a query string (all text). */
export type Source = 'body' | 'query';

/** A number in decimal notation, as a query string may carry one. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A number field: a JSON number in a body; in a query string, a decimal read as its number. */
const num = (schema: z.ZodNumber, from: Source) =>
  from === 'body'
    ? schema
    : z.preprocess((v) => (typeof v === 'string' && DECIMAL.test(v) ? Number(v) : v), schema);
// the bounds before the integer check: a number past them is refused naming the bound, not
// zod's safe-integer limit (9007199254740991)
const int = (r: { min: number; max: number }, from: Source) =>
  num(z.number().min(r.min).max(r.max).int(), from);

/** A yes/no field: a JSON boolean in a body; in a query string, 'true' or 'false'. */
const bool = (from: Source) =>
  from === 'body'
    ? z.boolean()
    : z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

/** The settings every sampling request shares; the samplers are those the model can run. */
const samplingFields = (samplers: readonly string[], from: Source) => ({
  sampler: z
    .string()
    .refine((s) => samplers.includes(s), { error: `expected one of ${samplers.join(', ')}` })
    .transform(samplerName)
    .optional(),
  nfe: int(LIMITS.nfe, from).optional(),
  temperature: num(
    z.number().min(LIMITS.temperature.min).max(LIMITS.temperature.max),
    from,
  ).optional(),
  seed: int(LIMITS.seed, from).optional(),
});

/** An 81-character puzzle ('1'..'9', '0' or '.' blank) without a digit twice in a unit. */
const puzzle = z
  .string()
  .max(2 * CELLS)
  .transform((s, ctx) => {
    try {
      const board = parseBoard(s, 'puzzle');
      const rep = findRepeat(board);
      if (rep) throw new Error(`puzzle has '${rep.digit}' twice in ${UNIT_NAMES[rep.unit]}`);
      return board;
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: (e as Error).message });
      return z.NEVER;
    }
  });

export const solveRequest = (samplers: readonly string[], from: Source) =>
  z.strictObject({
    puzzle,
    ...samplingFields(samplers, from),
    grid: z.enum(GRIDS).optional(),
    retries: int(LIMITS.retries, from).optional(),
    rules: bool(from).optional(),
  });
export type SolveRequest = z.infer<ReturnType<typeof solveRequest>>;

/** A task's conditioning fields (its spec's): strings up to 100,000 characters, whole numbers. */
const conditionFields = (fields: Record<string, 'string' | 'int'>, from: Source) =>
  Object.fromEntries(
    Object.entries(fields).map(([k, kind]) => [
      k,
      (kind === 'string'
        ? z.string().max(100_000)
        : int({ min: 0, max: 1_000_000 }, from)
      ).optional(),
    ]),
  );

export const sampleRequest = (
  samplers: readonly string[],
  from: Source,
  fields: Record<string, 'string' | 'int'> = {},
) =>
  z.strictObject({
    n: int(LIMITS.samples, from).optional(),
    ...samplingFields(samplers, from),
    ...conditionFields(fields, from),
  });
export type SampleRequest = z.infer<ReturnType<typeof sampleRequest>>;

export const generateRequest = z.strictObject({
  difficulty: z.enum(DIFFICULTY_CLASSES).optional(),
  seed: int(LIMITS.seed, 'query').optional(),
});
export type GenerateRequest = z.infer<typeof generateRequest>;

/** A request parsed by its schema: the value, or the first issue in one line. */
export function parseRequest<T>(
  schema: z.ZodType<T>,
  data: unknown,
): { value: T; error?: never } | { error: Error; value?: never } {
  const r = schema.safeParse(data);
  if (r.success) return { value: r.data };
  const issue = r.error.issues[0]!;
  const field = issue.path.join('.');
  return { error: new Error(`${field ? `${field}: ` : ''}${issue.message}`) };
}

/** fastify's validator for zod schemas (parseRequest). */
export const zodValidator: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) =>
    parseRequest(schema, data);
