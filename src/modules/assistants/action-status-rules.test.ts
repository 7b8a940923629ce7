import { describe, expect, it } from 'vitest';
import { actionStatusFromAnalysis, valueAtPath, type ActionStatusRule } from './action-status-rules.ts';

const vapi = { summary: 'Booked', structuredData: { interested: true, appointment: '2026-03-01', score: 7, transferred: 'no' }, successEvaluation: 'true' };
const retell = { call_summary: 'x', custom_analysis_data: { appointment: 'yes', plan: 'pro' }, call_successful: false };

describe('actionStatusFromAnalysis', () => {
  it('answers the first rule whose path holds a truthy value', () => {
    const rules: ActionStatusRule[] = [
      { action_status: 'transferred', path: 'structuredData.transferred' },
      { action_status: 'scheduled', path: 'structuredData.appointment' },
      { action_status: 'interested', path: 'structuredData.interested' },
    ];
    expect(actionStatusFromAnalysis(rules, vapi)).toBe('scheduled');
  });

  it('compares with equals strictly, by type', () => {
    expect(actionStatusFromAnalysis([{ action_status: 'interested', path: 'custom_analysis_data.plan', equals: 'pro' }], retell)).toBe('interested');
    expect(actionStatusFromAnalysis([{ action_status: 'interested', path: 'custom_analysis_data.plan', equals: 'basic' }], retell)).toBeNull();
    expect(actionStatusFromAnalysis([{ action_status: 'interested', path: 'structuredData.score', equals: 7 }], vapi)).toBe('interested');
    expect(actionStatusFromAnalysis([{ action_status: 'interested', path: 'structuredData.score', equals: '7' }], vapi)).toBeNull();
    expect(actionStatusFromAnalysis([{ action_status: 'scheduled', path: 'call_successful', equals: false }], retell)).toBe('scheduled');
  });

  it('reads "no", "false", "0" and empty text as no, other text as yes', () => {
    expect(actionStatusFromAnalysis([{ action_status: 'transferred', path: 'structuredData.transferred' }], vapi)).toBeNull();
    expect(actionStatusFromAnalysis([{ action_status: 'scheduled', path: 'custom_analysis_data.appointment' }], retell)).toBe('scheduled');
    expect(actionStatusFromAnalysis([{ action_status: 'interested', path: 'successEvaluation' }], vapi)).toBe('interested');
    expect(actionStatusFromAnalysis([{ action_status: 'interested', path: 'x' }], { x: ' 0 ' })).toBeNull();
  });

  it('answers null without rules, without analysis, or when no path exists', () => {
    expect(actionStatusFromAnalysis([], vapi)).toBeNull();
    expect(actionStatusFromAnalysis(null, vapi)).toBeNull();
    expect(actionStatusFromAnalysis([{ action_status: 'interested', path: 'structuredData.interested' }], null)).toBeNull();
    expect(actionStatusFromAnalysis([{ action_status: 'interested', path: 'structuredData.missing.deeper' }], vapi)).toBeNull();
    expect(actionStatusFromAnalysis([{ action_status: 'interested', path: 'summary.length' }], vapi)).toBeNull();
  });

  it('follows own keys only, never the prototype', () => {
    expect(valueAtPath({ a: {} }, 'a.constructor')).toBeUndefined();
    expect(valueAtPath({ a: { b: [1, 2] } }, 'a.b.1')).toBe(2);
  });
});
