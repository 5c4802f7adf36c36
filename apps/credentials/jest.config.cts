module.exports = {
  displayName: 'credentials',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/apps/credentials',
};
