/** A page of a listing: its items, newest first, and the cursor of the next page. */
export interface Page<T> {
  data: T[];
  hasMore: boolean;
  /** Pass as `startingAfter` for the next page; null on the last one. */
  nextCursor: string | null;
}

/**
 * A listing's answer, as stripe-node's list calls give it: awaited, the first page; iterated with `for await`, every
 * item of every page, each page asked for when the one before is used up (`startingAfter` = its `nextCursor`).
 */
export interface PageList<T> extends Promise<Page<T>>, AsyncIterable<T> {}

/** The first page of `query` now; the pages after it as an iteration reaches them. */
export function pageList<T, Q extends { startingAfter?: string | null }>(fetchPage: (query: Q) => Promise<Page<T>>, query: Q): PageList<T> {
  const first = fetchPage(query);
  return Object.assign(first, {
    async *[Symbol.asyncIterator](): AsyncGenerator<T> {
      for (let page = await first; ; page = await fetchPage({ ...query, startingAfter: page.nextCursor })) {
        yield* page.data;
        if (!page.hasMore || page.nextCursor === null) return;
      }
    },
  });
}
