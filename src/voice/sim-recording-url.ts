/**
 * Where a simulated call's recording is served: its transcript spoken (modules/calls answers
 * GET /api/v1/calls/{id}/simulated-recording, a path it takes from here). Absolute with
 * PUBLIC_BASE_URL, else relative to the service (the dashboard's player resolves it).
 */
export const SIMULATED_RECORDING_PATH = '/:id/simulated-recording';

export function simulatedRecordingUrl(publicBaseUrl: string | undefined, callId: number): string {
  return `${(publicBaseUrl ?? '').replace(/\/+$/, '')}/api/v1/calls/${callId}/simulated-recording`;
}
