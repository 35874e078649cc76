/** Most ids one batch may hold: here, apart from the batch's schemas, so that the search box's first load can say it without zod. */
export const MAX_BATCH_IDS = 500;
