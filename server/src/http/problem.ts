import { PROBLEM_CONTENT_TYPE, problemFor, type ApiErrorCode } from '@svc/protocol';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from '../logger';
import { ApiError } from '../errors';
import { routeOf } from './access-log';
import { requestIdOf } from './request-id';

/** An ApiError as its problem+json answer: the one place the problem body is built. */
export function renderProblem(error: ApiError, requestId: string): { status: number; contentType: string; body: string } {
  return { status: error.status, contentType: PROBLEM_CONTENT_TYPE, body: JSON.stringify(problemFor(error.code, error.detail, requestId, error.options.errors)) };
}

export function sendProblem(res: Response, error: ApiError): void {
  const problem = renderProblem(error, requestIdOf(res));
  for (const [name, value] of Object.entries(error.options.headers ?? {})) res.setHeader(name, value);
  res.status(problem.status).type(problem.contentType).send(problem.body);
}

/** Errors raised by Express's body parser, by their `type`. */
const BODY_PARSER_ERRORS: Record<string, { code: ApiErrorCode; detail: string }> = {
  'entity.parse.failed': { code: 'malformed_json', detail: 'The body could not be parsed as JSON; check quoting and commas.' },
  'entity.too.large': { code: 'payload_too_large', detail: 'The body is larger than the 100 KB limit.' },
  'encoding.unsupported': { code: 'unsupported_media_type', detail: 'Send the body as UTF-8 JSON.' },
  'charset.unsupported': { code: 'unsupported_media_type', detail: 'Send the body as UTF-8 JSON.' },
};

/** The one place where thrown errors become problem+json. Unknown errors are logged and answered 500 without detail. */
export function problemHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    let apiError: ApiError;
    if (error instanceof ApiError) {
      apiError = error;
    } else {
      const parserType = (error as { type?: string }).type;
      const known = parserType ? BODY_PARSER_ERRORS[parserType] : undefined;
      if (known) {
        apiError = new ApiError(known.code, known.detail);
      } else {
        logger.error({ err: error, requestId: requestIdOf(res), method: req.method, route: routeOf(req) }, 'unhandled error');
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
