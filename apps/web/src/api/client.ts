// The tRPC client: subscriptions over SSE (one multiplexed metrics stream), everything else over
// batched HTTP. The runtime serves the web app, so the API is same-origin under /trpc. When the
// runtime is bound to a non-local address it requires a token: the page is then opened with
// `?token=...`, which is sent as a Bearer header, and as a query parameter on the SSE URL
// (EventSource cannot set headers).
import {
  createTRPCClient,
  httpBatchLink,
  httpSubscriptionLink,
  splitLink,
  type TRPCClient,
} from '@trpc/client';
import type { AppRouter } from '@streamwright/runtime';

export type ApiClient = TRPCClient<AppRouter>;

export function tokenFrom(search: string): string | null {
  const token = new URLSearchParams(search).get('token');
  return token && token.length > 0 ? token : null;
}

export function createApiClient(
  options: { baseUrl?: string; token?: string | null } = {},
): ApiClient {
  const base = options.baseUrl ?? '/trpc';
  const token = options.token ?? null;
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({
          url: token ? `${base}?token=${encodeURIComponent(token)}` : base,
        }),
        false: httpBatchLink({
          url: base,
          headers: () => (token ? { Authorization: `Bearer ${token}` } : {}),
        }),
      }),
    ],
  });
}
