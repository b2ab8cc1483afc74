import { PROBLEM_CONTENT_TYPE, type ApiErrorCode } from '@svc/protocol';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from '../logger';
import type { DatabaseHealth } from '../db/database-health';
import { isDatabaseUnavailable } from '../db/database-outage';
import { ApiError, DatabaseUnavailableError } from '../errors';
import { problemAnswer } from '../mutations/stored-answer';
import { requestIdOf } from './request-id';
import { routePatternOf } from './route-pattern';

/** Sends an ApiError as problem+json (its body built by `problemAnswer`, the one place it is built), with its headers. */
export function sendProblem(res: Response, error: ApiError): void {
  const problem = problemAnswer(error, requestIdOf(res));
  for (const [name, value] of Object.entries(error.options.headers ?? {})) res.setHeader(name, value);
  res.status(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem.body);
}

/** Errors raised by Express's body parser, by their `type`. */
const BODY_PARSER_ERRORS: Record<string, { code: ApiErrorCode; detail: string }> = {
  'entity.parse.failed': { code: 'malformed_json', detail: 'The body could not be parsed as JSON; check quoting and commas.' },
  'entity.too.large': { code: 'payload_too_large', detail: 'The body is larger than the 100 KB limit.' },
  'encoding.unsupported': { code: 'unsupported_media_type', detail: 'Send the body as UTF-8 JSON.' },
  'charset.unsupported': { code: 'unsupported_media_type', detail: 'Send the body as UTF-8 JSON.' },
};

/**
 * A client error raised by Express's body parser or router that is not one of those above: a body that does not
 * decode as its Content-Encoding says, a path with bad percent-encoding. They carry a 4xx `status` (http-errors).
 */
function clientErrorOf(error: unknown): ApiError | null {
  const status = (error as { status?: unknown; statusCode?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode;
  if (typeof status !== 'number' || status < 400 || status > 499) return null;
  if (status === 413) return new ApiError('payload_too_large', BODY_PARSER_ERRORS['entity.too.large']!.detail);
  if (status === 415) return new ApiError('unsupported_media_type', BODY_PARSER_ERRORS['encoding.unsupported']!.detail);
  return new ApiError(
    'malformed_request',
    'The request could not be read: check that the path is correctly percent-encoded and that the body is sent as its Content-Encoding says.',
  );
}

/**
 * The one place where thrown errors become problem+json. Client errors the parser or router raise keep their 4xx; a
 * database outage is 503 `database_unavailable`; anything else unknown is logged and answered 500 without detail.
 */
export function problemHandler(logger: Logger, databaseHealth?: DatabaseHealth): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    let apiError: ApiError;
    if (error instanceof ApiError) {
      apiError = error;
    } else if (isDatabaseUnavailable(error)) {
      // An outage, not a fault of this request: 503 with Retry-After. DatabaseHealth checks the database and logs the
      // outage once; a line per request would flood the log.
      databaseHealth?.report(error);
      apiError = new DatabaseUnavailableError();
    } else {
      const parserType = (error as { type?: string }).type;
      const known = parserType ? BODY_PARSER_ERRORS[parserType] : undefined;
      const clientError = known ? new ApiError(known.code, known.detail) : clientErrorOf(error);
      if (clientError) {
        apiError = clientError;
      } else {
        logger.error({ err: error, requestId: requestIdOf(res), method: req.method, route: routePatternOf(req, res) }, 'unhandled error');
        apiError = new ApiError('internal_error', `Something went wrong on our side. Quote request id ${requestIdOf(res)} when you contact support.`);
      }
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    sendProblem(res, apiError);
  };
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new ApiError('not_found', `There is no endpoint ${req.method} ${req.path}. See /docs for the API reference.`));
};
