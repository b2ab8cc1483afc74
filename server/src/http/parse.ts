import type { z } from 'zod';
import { ValidationError } from '../errors';

/** Parses input with its protocol schema; 400 `validation_failed` with every field's path otherwise. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, pathPrefix: string[] = []): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw ValidationError.fromZod(result.error, pathPrefix);
  return result.data;
}
