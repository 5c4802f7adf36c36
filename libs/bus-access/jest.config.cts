module.exports = {
  displayName: 'bus-access',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/bus-access',
};
