import type http from 'node:http';

/**
 * An answer KYC Connect encrypts (upstream-api-facts.md: responses can be AES-encrypted when a client
 * arranges it), so that what a reviewer sees of one can be tried without an account. The refId
 * `encrypted-demo` (docs/sandbox.md) is answered 200, labelled JSON as the service labels its answers, with
 * a body that is not JSON: a JWE compact serialisation (RSA-OAEP-256, A256GCM) of no real record. Every
 * key gets it; a recordId has no such candidate.
 */
export const ENCRYPTED_DEMO_REF_ID = 'encrypted-demo';

/** The five base64url parts of a JWE: its header, the wrapped key, the IV, the ciphertext and the tag. */
const BODY = Buffer.from(
  [
    'eyJhbGciOiJSU0EtT0FFUC0yNTYiLCJlbmMiOiJBMjU2R0NNIiwia2lkIjoic2FuZGJveC1kZW1vIn0',
    'b3BhcXVlLXdyYXBwZWQta2V5LW9mLW5vLXJlYWwtcmVjb3JkLXNhbmRib3gtZGVtby0wMDAx',
    '48V1_ALb6US04U3b',
    '5eym8TW_c8SuK0ltJ3rpYIzOeDQz7TALvtu6UG9oMo4vpzs9tX_EFShS8iB7j6jiSdiwkIr3ajwQzaBtQD_A',
    'XFBoMYUZodetZdvTiFvSkQ',
  ].join('.'),
);

export function answerEncrypted(req: http.IncomingMessage, res: http.ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': BODY.length });
  res.end(req.method === 'HEAD' ? undefined : BODY);
}
