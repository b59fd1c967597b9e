import type { resaleRepository as repo } from './resale.repository.js';

/** An order with its listing, ticket type and event, as the repository reads it. */
export type OrderDetail = NonNullable<Awaited<ReturnType<typeof repo.order>>>;
