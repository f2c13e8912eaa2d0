import { describe, expect, test } from 'vitest'
import { globalConfigDir, managedConfigDir } from '../../../src/main/core/config'
import { ancestorsRootFirst, displayPath } from '../../../src/main/core/config/locations'

describe('globalConfigDir', () => {
  test.each<[NodeJS.Platform, Record<string, string>, string, string]>([
    ['linux', {}, '/home/u', '/home/u/.config/hotaru'],
    ['linux', { XDG_CONFIG_HOME: '/xdg' }, '/home/u', '/xdg/hotaru'],
    ['darwin', {}, '/Users/u', '/Users/u/.config/hotaru'],
    ['darwin', { XDG_CONFIG_HOME: '/xdg' }, '/Users/u', '/xdg/hotaru'],
    ['win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'C:\\Users\\u', 'C:\\Users\\u\\AppData\\Roaming\\hotaru'],
    ['win32', {}, 'C:\\Users\\u', 'C:\\Users\\u\\AppData\\Roaming\\hotaru'],
  ])('%s %j', (platform, env, homeDir, expected) => {
    expect(globalConfigDir({ env, homeDir, platform })).toBe(expected)
  })
})

describe('managedConfigDir', () => {
  test.each<[NodeJS.Platform, Record<string, string>, string]>([
    ['linux', {}, '/etc/hotaru'],
    ['darwin', {}, '/Library/Application Support/Hotaru'],
    ['win32', { ProgramData: 'D:\\ProgramData' }, 'D:\\ProgramData\\Hotaru'],
    ['win32', {}, 'C:\\ProgramData\\Hotaru'],
    ['linux', { HOTARU_MANAGED_CONFIG_DIR: '/opt/policy' }, '/opt/policy'],
    ['win32', { HOTARU_MANAGED_CONFIG_DIR: 'E:\\policy' }, 'E:\\policy'],
  ])('%s %j', (platform, env, expected) => {
    expect(managedConfigDir({ env, platform })).toBe(expected)
  })
})

describe('helpers', () => {
  test('ancestorsRootFirst walks to the root, farthest first', () => {
    expect(ancestorsRootFirst('/a/b/c')).toEqual(['/', '/a', '/a/b', '/a/b/c'])
    expect(ancestorsRootFirst('/')).toEqual(['/'])
  })

  test('displayPath shortens the home folder only', () => {
    expect(displayPath('/home/u/.config/hotaru/hotaru.json', '/home/u')).toBe('~/.config/hotaru/hotaru.json')
    expect(displayPath('/home/user2/x.json', '/home/u')).toBe('/home/user2/x.json')
    expect(displayPath('/etc/hotaru/hotaru.json', '/home/u')).toBe('/etc/hotaru/hotaru.json')
  })
})
