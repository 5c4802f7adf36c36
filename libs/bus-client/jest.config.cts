module.exports = {
  displayName: 'bus-client',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/bus-client',
};
