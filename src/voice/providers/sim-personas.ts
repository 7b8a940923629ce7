import type { TranscriptTurn } from '../provider.ts';

/**
 * Who picks up a simulated answered call. Each persona fixes the outcome fields the rest of
 * the service reads (action_status, who hung up, how long it lasted) and writes a conversation
 * to match, so the dashboard, analytics, retries, opt-outs and webhooks show the variety real
 * calls have. The opt-out persona's words are ones the offline opt-out detector
 * (modules/compliance/opt-out) recognises: the simulator gives no opt-out flag of its own, the
 * number is suppressed by the service reading the transcript, as with a real vendor.
 */
export type PersonaKind = 'interested' | 'not_interested' | 'callback' | 'opt_out' | 'wrong_person' | 'wants_human' | 'hangs_up';
export type SimActionStatus = 'transferred' | 'scheduled' | 'interested' | null;

type Rng = () => number;

interface Persona {
  action: SimActionStatus;
  /** Why the action status was set (action_status_reason), for the personas that set one. */
  reason: string | null;
  /** Chance that the person, not the assistant, ends the call. */
  humanEnds: number;
  talkSec: [number, number];
}

export const PERSONAS: Record<PersonaKind, Persona> = {
  interested: { action: 'interested', reason: 'asked for the details', humanEnds: 0.3, talkSec: [90, 300] },
  not_interested: { action: null, reason: null, humanEnds: 0.6, talkSec: [25, 90] },
  callback: { action: 'scheduled', reason: 'asked to be called back', humanEnds: 0.4, talkSec: [40, 120] },
  opt_out: { action: null, reason: null, humanEnds: 0.8, talkSec: [15, 45] },
  wrong_person: { action: null, reason: null, humanEnds: 0.5, talkSec: [15, 40] },
  wants_human: { action: 'transferred', reason: 'asked to speak to a person', humanEnds: 0, talkSec: [40, 150] },
  hangs_up: { action: null, reason: null, humanEnds: 1, talkSec: [5, 20] },
};

// Shares among answered outbound calls; roughly a warm, consented list.
const MIX: [PersonaKind, number][] = [
  ['interested', 0.27], ['not_interested', 0.22], ['callback', 0.14], ['hangs_up', 0.12],
  ['opt_out', 0.09], ['wrong_person', 0.08], ['wants_human', 0.08],
];
// Someone who calls back in neither hangs up on the greeting nor is the wrong person.
const INBOUND = new Set<PersonaKind>(['interested', 'not_interested', 'callback', 'opt_out', 'wants_human']);

export function pickPersona(rng: Rng, inbound: boolean): PersonaKind {
  const mix = MIX.filter(([k]) => !inbound || INBOUND.has(k));
  let r = rng() * mix.reduce((s, [, p]) => s + p, 0);
  for (const [kind, p] of mix) if ((r -= p) < 0) return kind;
  return mix[mix.length - 1]![0];
}

/**
 * The persona that agrees with a forced action status (`_sim.action_status`), or with none:
 * a forced outcome must not be contradicted by the words (no opt-out, no early hang-up).
 */
export function personaFor(action: SimActionStatus): PersonaKind {
  return action === 'interested' ? 'interested' : action === 'scheduled' ? 'callback' : action === 'transferred' ? 'wants_human' : 'not_interested';
}

const oneOf = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

export interface ConversationInput {
  kind: PersonaKind;
  inbound: boolean;
  /** The campaign assistant's first message, placeholders filled: said as is. */
  firstMessage: string | null;
  name: string | null;
  email: string | null;
}

/**
 * The agent opens with the assistant's first message when there is one, else a greeting; it
 * never reads the campaign prompt (instructions to the agent, not words for the person).
 */
export function opener(input: Pick<ConversationInput, 'inbound' | 'firstMessage' | 'name'>, rng: Rng): string {
  if (input.firstMessage?.trim()) return input.firstMessage.trim();
  const hi = input.name ? `Hi ${input.name}` : 'Hello';
  if (input.inbound) return `${hi}, thanks for calling back! How can I help you today?`;
  return oneOf(rng, [
    `${hi}, this is the virtual assistant. I'm calling about your recent enquiry. Do you have a minute?`,
    `${hi}! I'm an automated assistant following up on your recent enquiry. Is now a good time?`,
    `Good day${input.name ? ` ${input.name}` : ''}, I'm calling about the enquiry you made with us recently. Have you got a moment?`,
  ]);
}

const agent = (text: string): TranscriptTurn => ({ role: 'assistant', text });
const user = (text: string): TranscriptTurn => ({ role: 'user', text });

/** The whole conversation of an answered call: the opener, then the persona's turns. */
export function conversation(input: ConversationInput, rng: Rng): TranscriptTurn[] {
  const turns = [agent(opener(input, rng))];
  const { kind } = input;
  if (kind === 'hangs_up') {
    turns.push(user(oneOf(rng, ["Sorry, I can't talk right now.", "I'm driving, bye.", 'Not a good time.', 'Who is this? ... Never mind.'])));
    return turns;
  }
  if (kind === 'wrong_person') {
    turns.push(user(oneOf(rng, [
      input.name ? `There's no one called ${input.name} here.` : 'Sorry, I think you have the wrong number.',
      'Wrong number, sorry.', 'I think you have the wrong person. I never made an enquiry.',
    ])));
    turns.push(agent(oneOf(rng, ['My apologies for the trouble. I will correct our records. Have a good day.', "I'm sorry about that. I'll make a note of it. Goodbye."])));
    turns.push(user(oneOf(rng, ['No problem, bye.', 'Okay, bye.'])));
    return turns;
  }
  turns.push(user(input.inbound ? oneOf(rng, ['Hi, I missed a call from this number.', 'Hello, someone called me from this number earlier.'])
    : oneOf(rng, ['Yes, speaking. Go ahead.', "Sure, what's this about?", 'Hi. Yes, I have a minute.', 'Okay, go on.'])));
  turns.push(agent(oneOf(rng, [
    "Thanks! It's about your recent enquiry. I'd like to go over a couple of details and see how we can help.",
    'Great. I wanted to follow up on your enquiry and answer any questions you have. It only takes two minutes.',
    'Thank you. I have a couple of quick questions about what you were looking for, so we can send you the right offer.',
  ])));
  turns.push(...body(input, rng));
  return turns;
}

function body(input: ConversationInput, rng: Rng): TranscriptTurn[] {
  switch (input.kind) {
    case 'interested': {
      const mail = input.email ?? 'my e-mail';
      return [
        user(oneOf(rng, ['Yes, actually, that sounds good. What would the next step be?', 'Okay, I am interested. How does it work?', 'Sure, I was going to look into this anyway.'])),
        agent('We would send you the details and a personalised offer, and a specialist can answer anything else. Where should we send it?'),
        user(oneOf(rng, [`Send it to ${mail}, please.`, `Please e-mail it to ${mail}.`, `${mail} works. Thanks.`])),
        agent(oneOf(rng, ['Perfect, you will have it today. Thank you for your time!', 'Done. You will get the details shortly. Have a great day!'])),
      ];
    }
    case 'not_interested':
      return [
        user(oneOf(rng, ["No thanks, I'm not interested.", 'We already have something for that, thanks.', "Honestly I'm not looking for anything right now.", "Hmm, I'll pass, thank you."])),
        agent(oneOf(rng, ['Understood. Thank you for your time, goodbye.', 'No problem at all. Have a nice day.'])),
        user(oneOf(rng, ['Thanks, bye.', 'Bye.', 'You too.'])),
      ];
    case 'callback': {
      const [asked, when] = oneOf(rng, [
        ['Can you call me back tomorrow at 10 am?', 'tomorrow at 10 am'],
        ['Try me again on Thursday after 3 pm.', 'Thursday at 3 pm'],
        ["I'm at work. Call me back this evening around 6.", 'this evening at 6 pm'],
        ['Could you ring me on Monday morning, around 9?', 'Monday at 9 am'],
      ] as const);
      return [user(asked), agent(`Of course. I've scheduled a call for ${when}. Talk to you then!`), user(oneOf(rng, ['Great, thanks.', 'Okay, bye.']))];
    }
    case 'opt_out':
      return [
        user(oneOf(rng, ['Please take me off your list.', "Stop calling me. I've had three of these calls this week.", 'Put me on your do not call list, please.', 'Please remove my number from your list.'])),
        agent("Understood. We won't call this number again. Sorry for the trouble, goodbye."),
      ];
    case 'wants_human':
      return [
        user(oneOf(rng, ['Can I speak to a real person, please?', 'Is there a human I can talk to?', "I'd rather talk to someone from your team."])),
        agent(oneOf(rng, ['Of course, I am transferring you to a colleague now. Please hold.', 'Sure, connecting you to one of our specialists. One moment.'])),
      ];
    default:
      return [];
  }
}
