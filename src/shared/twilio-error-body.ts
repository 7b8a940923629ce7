/**
 * The error body of Twilio's REST API (every resource: Calls, Messages), as its docs and the
 * `twilio` package's RestException describe it. Shared by the voice and the messaging providers,
 * which may not import each other's folders.
 */
export interface TwilioErrorBody {
  code?: number;
  message?: string;
  more_info?: string;
  status?: number;
}
