import type { z } from 'zod';
import { ValidationError } from '../errors';
import { unstorableText } from './storable-text';

/**
 * Parses input with its protocol schema; 400 `validation_failed` with every field's path otherwise. Text the database
 * cannot take (U+0000, a lone surrogate) is refused first, wherever it is: a query string or a path parameter reaches
 * a query as surely as a body does.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, pathPrefix: string[] = []): z.output<S> {
  const problem = unstorableText(input);
  if (problem) throw new ValidationError([{ ...problem, path: [...pathPrefix, problem.path].filter(Boolean).join('.') }]);
  const result = schema.safeParse(input);
  if (!result.success) throw ValidationError.fromZod(result.error, pathPrefix);
  return result.data;
}
