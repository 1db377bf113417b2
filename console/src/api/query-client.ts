import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './graphql';

/**
 * The console's one query cache, a module so that the router's loaders can start a page's
 * queries at route match, before the page's component (a lazy chunk) mounts.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // An answer with a contract code (401, 403, not found…) will not change by asking again.
      retry: (count, err) => !(err instanceof ApiError) && count < 2,
    },
  },
});
